package installer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// recordFormat names the install record's format.
const recordFormat = "descriptorpin/service-install/1"

// Record is what 'service install' created, kept so that 'service
// uninstall' removes exactly that and nothing else. It lives next to the
// default config file (service-install.json, or service-install-system.json
// for --system) whatever --config says, so that uninstall finds it without
// being told the config path again.
type Record struct {
	Format     string   `json:"format"`
	Manager    string   `json:"manager"`  // friendly name: systemd, launchd, ...
	Platform   string   `json:"platform"` // kardianos' name: linux-systemd, ...
	System     bool     `json:"system"`
	Name       string   `json:"name"`           // unit name, launchd label or Windows service name
	Unit       string   `json:"unit,omitempty"` // the file the manager's install wrote ("" on Windows)
	Executable string   `json:"executable"`
	Arguments  []string `json:"arguments"`
	Config     string   `json:"config"`
	// ConfigCreated is set when install wrote the config file; uninstall
	// removes it only while its SHA-256 is still ConfigSHA256 (an edited
	// config is the user's now).
	ConfigCreated bool   `json:"config_created"`
	ConfigSHA256  string `json:"config_sha256,omitempty"`
	// Dirs are the directories install created; uninstall removes each one
	// that is empty by then, deepest first.
	Dirs        []string `json:"dirs_created,omitempty"`
	Version     string   `json:"version"`
	InstalledAt string   `json:"installed_at"`
}

// RecordPath is where the record for this scope lives.
func RecordPath(system bool) (string, error) {
	def, err := config.DefaultPath()
	if err != nil {
		return "", err
	}
	name := "service-install.json"
	if system {
		name = "service-install-system.json"
	}
	return filepath.Join(filepath.Dir(def), name), nil
}

// readRecord reads the record; (nil, nil) when there is none.
func readRecord(path string) (*Record, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the install record %q: %w", sanitize.Text(path), err)
	}
	var r Record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil || r.Format != recordFormat {
		if err == nil {
			err = fmt.Errorf("format %q, want %q", r.Format, recordFormat)
		}
		return nil, &Error{Msg: fmt.Sprintf("install record %q is damaged: %s", sanitize.Text(path), sanitize.Text(err.Error())),
			Hint: "remove it and run 'descriptorpin service install' again"}
	}
	return &r, nil
}

// writeRecord writes the record with the atomic writer the caller gave.
func (r *Runner) writeRecord(path string, rec *Record) error {
	sort.Strings(rec.Dirs)
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("writing the install record: %w", err)
	}
	return r.opt.WriteFile(path, append(data, '\n'), 0o600)
}

func fileSHA256(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// missingDirs lists path and each of its parents that do not exist, up to
// the first one that does. The home directory and what holds it are never
// listed: uninstall must not remove a home directory, even an empty one.
func missingDirs(path string) []string {
	home, _ := os.UserHomeDir()
	var out []string
	for p := filepath.Clean(path); ; {
		if _, err := os.Lstat(p); err == nil {
			return out
		}
		if home != "" && (p == home || strings.HasPrefix(home, p+string(filepath.Separator))) {
			return out
		}
		out = append(out, p)
		parent := filepath.Dir(p)
		if parent == p {
			return out
		}
		p = parent
	}
}

// nowExisting keeps the candidates that exist now, without duplicates.
func nowExisting(cands []string, have []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range append(append([]string(nil), have...), cands...) {
		if d == "" || seen[d] {
			continue
		}
		if st, err := os.Lstat(d); err == nil && st.IsDir() {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// removeEmptyDirs removes each directory that is empty, deepest first, and
// returns the ones it removed.
func removeEmptyDirs(dirs []string) []string {
	sorted := append([]string(nil), dirs...)
	sort.Slice(sorted, func(i, j int) bool {
		di, dj := strings.Count(sorted[i], string(filepath.Separator)), strings.Count(sorted[j], string(filepath.Separator))
		if di != dj {
			return di > dj
		}
		return sorted[i] > sorted[j]
	})
	var removed []string
	for _, d := range sorted {
		if st, err := os.Lstat(d); err != nil || !st.IsDir() {
			continue
		}
		if err := os.Remove(d); err == nil {
			removed = append(removed, d)
		}
	}
	return removed
}
