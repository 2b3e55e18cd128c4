package config

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// A relative path in a config file means a path next to the file, not in
// whatever directory the service happens to run from.
func TestLoadTakesRelativePathsRelativeToTheConfigFile(t *testing.T) {
	setHome(t)
	p := writeFile(t, "config.yaml", "pin: pin.json\nstate_dir: ./state\ntargets:\n  - path: ../inv/inventory.json\nlog:\n  file: logs/events.jsonl\n")
	cfg, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(p)
	for _, c := range []struct{ field, got, want string }{
		{"pin", cfg.Pin, filepath.Join(dir, "pin.json")},
		{"state_dir", cfg.StateDir, filepath.Join(dir, "state")},
		{"targets[0].path", cfg.Targets[0].Path, filepath.Join(filepath.Dir(dir), "inv", "inventory.json")},
		{"log.file", cfg.Log.File, filepath.Join(dir, "logs", "events.jsonl")},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.field, c.got, c.want)
		}
	}
	// Parse has no file to be relative to: a relative path stays an error.
	cfg, err = Parse(strings.NewReader("pin: pin.json\n"))
	if err == nil {
		err = cfg.Validate()
	}
	if err == nil || !strings.Contains(err.Error(), "must be an absolute path") {
		t.Errorf("Parse of a relative pin: %v", err)
	}
}

func TestLoadOfAMissingFileSaysSoAndIsNotExist(t *testing.T) {
	p := filepath.Join(t.TempDir(), "nope.yaml")
	_, err := Load(p)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "no such file") || strings.Contains(err.Error(), "stat ") {
		t.Errorf("got %v", err)
	}
}
