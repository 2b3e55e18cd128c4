// Package hostkey keeps the per-host key of DescriptorPin's launch value
// digests (engine/launch.Key): 32 random bytes, generated once, written
// hex-encoded with mode 0600 beside the service state
// (<state_dir>/hostkey), and read from the same place by the CLI.
//
// The key makes a pin's digests of env values, header values and the
// redacted parts of arguments and URLs unguessable even for short values,
// without putting anything secret in the pin (which is meant for git). The
// price is that digests are host-specific: a pin carries the key's id, and
// a scan on another host says the values were not compared. A fleet that
// wants digests to compare everywhere distributes one key file to every
// host with its configuration management, as it would any secret.
package hostkey

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/launch"
)

// Size is the key length in bytes.
const Size = 32

// FileName is the key file's name inside the state directory.
const FileName = "hostkey"

// Path is where the key of a state directory lives.
func Path(stateDir string) string { return filepath.Join(stateDir, FileName) }

// ErrInsecure is wrapped when the key file can be read by other users.
var ErrInsecure = errors.New("host key file is readable by other users")

// Load reads the key at path. A missing file is an error wrapping
// fs.ErrNotExist; a file that is not exactly 64 hex digits (one final
// newline allowed), not a regular file, or readable by group or others
// (Unix) is an error, never a silently weaker key.
func Load(path string) (launch.Key, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("reading the host key: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("reading the host key %s: not a regular file", path)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("reading the host key %s (mode %04o): %w; chmod 600 it", path, st.Mode().Perm(), ErrInsecure)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the host key: %w", err)
	}
	text := strings.TrimSuffix(string(data), "\n")
	key, err := hex.DecodeString(text)
	if err != nil || len(key) != Size {
		return nil, fmt.Errorf("reading the host key %s: not %d hex-encoded bytes", path, Size)
	}
	return launch.Key(key), nil
}

// LoadOrCreate reads the key at path, creating it (and its directory,
// mode 0700) when it does not exist. Two processes creating it at once
// agree on one key: the file is written aside and linked into place, which
// fails if another got there first, and then that key is read.
func LoadOrCreate(path string) (launch.Key, error) {
	key, err := Load(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the host key: %w", err)
	}
	buf := make([]byte, Size)
	if _, err := rand.Read(buf); err != nil {
		return nil, fmt.Errorf("creating the host key: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+FileName+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("creating the host key: %w", err)
	}
	name := tmp.Name()
	defer os.Remove(name)
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return nil, fmt.Errorf("creating the host key: %w", err)
	}
	if _, err := tmp.WriteString(hex.EncodeToString(buf) + "\n"); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("creating the host key: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("creating the host key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("creating the host key: %w", err)
	}
	if err := os.Link(name, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("creating the host key: %w", err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return Load(path)
}

// ForScan reads the key a scan compares values with, in stateDir (the
// service's default state directory). A scan never creates one: without
// it, values are not compared and the scan says so. A key file that
// exists but is unreadable, malformed or exposed is an error. An empty
// stateDir means no key.
func ForScan(stateDir string) (launch.Key, error) {
	if stateDir == "" {
		return nil, nil
	}
	k, err := Load(Path(stateDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return k, err
}

// ForPin reads, or creates, the key pin and approve record value digests
// with. When none can be created (no state directory, or one that cannot
// be written) the pin records no digests and warn says why; an existing
// bad key file is an error.
func ForPin(stateDir string) (k launch.Key, warn string, err error) {
	if stateDir == "" {
		return nil, "no state directory for the host key: launch values are pinned without digests", nil
	}
	p := Path(stateDir)
	if k, err := Load(p); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return k, "", err
	}
	if k, err = LoadOrCreate(p); err != nil {
		return nil, err.Error() + ": launch values are pinned without digests", nil
	}
	return k, "", nil
}
