package clientconfig

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
)

// fuzzNames are the file names a fuzzed document is parsed under, so every
// format and client path is reached.
var fuzzNames = []string{
	"/home/u/.cursor/mcp.json",
	"/home/u/.claude.json",
	"/home/u/.config/Code/User/settings.json",
	"/home/u/.config/zed/settings.json",
	"/home/u/.continue/config.yaml",
	"/home/u/repo/.continue/mcpServers/x.json",
	"/home/u/.codex/config.toml",
	"/home/u/.config/opencode/opencode.json",
	"/home/u/.gemini/settings.json",
	"notes",
	"notes.json",
}

// FuzzParse checks that Parse never panics, that every failure is an
// *engine.InputError, and that a success is well formed and repeatable.
func FuzzParse(f *testing.F) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		f.Fatal(err)
	}
	for i, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(i), uint8(0))
	}
	for _, s := range []string{
		"", "//", "/*", "{", "[", `{"mcpServers": {"a": {"command": ["x"]}}}`,
		`{"mcp": {"servers": {"a": {}}}}`, `{"projects": {"/r": {"mcpServers": {"a": {}}}}}`,
		"mcpServers:\n  - name: a\n    command: x\n", "[mcp_servers.a]\ncommand = \"x\"\n",
		"a: &a [1]\nb: *a\n", "{\"a\": 1, /* c */ }",
	} {
		f.Add([]byte(s), uint8(0), uint8(0))
	}
	formats := Formats()
	f.Fuzz(func(t *testing.T, data []byte, nameIdx, formatIdx uint8) {
		file := fuzzNames[int(nameIdx)%len(fuzzNames)]
		hint := formats[int(formatIdx)%len(formats)]
		inv, got, err := Parse(file, data, hint)
		if err != nil {
			var ie *engine.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %T is not an *engine.InputError: %v", err, err)
			}
			if ie.File != file {
				t.Fatalf("error names file %q", ie.File)
			}
			if inv != nil {
				t.Fatal("an inventory with an error")
			}
			if got == FormatInventory && !errors.Is(err, ErrInventory) {
				t.Fatalf("FormatInventory without ErrInventory: %v", err)
			}
			return
		}
		if inv == nil || inv.File != file {
			t.Fatalf("inventory %v", inv)
		}
		if got == FormatAuto || got == FormatInventory {
			t.Fatalf("format %q reported for a success", got)
		}
		names := map[string]bool{}
		for _, s := range inv.Servers {
			if names[s.Name] {
				t.Fatalf("server %q twice", s.Name)
			}
			names[s.Name] = true
			if s.Transport == "" || s.Client == "" || s.Scope == "" || s.Path == "" || len(s.Tools) != 0 {
				t.Fatalf("server %+v", s)
			}
			if !sort.StringsAreSorted(s.EnvKeys) || !sort.StringsAreSorted(s.HeaderKeys) ||
				len(s.EnvKeys) != len(s.Env) || len(s.HeaderKeys) != len(s.Headers) {
				t.Fatalf("server %q keys and values disagree", s.Name)
			}
		}
		again, got2, err := Parse(file, data, hint)
		if err != nil || got2 != got || !reflect.DeepEqual(again, inv) {
			t.Fatalf("second parse differs: %v", err)
		}
	})
}

// FuzzProjectDirs checks ProjectDirs the same way.
func FuzzProjectDirs(f *testing.F) {
	f.Add([]byte(`{"projects": {"/a": {}, "/b": {"mcpServers": {}}}}`))
	f.Add([]byte("// c\n{\"projects\": {\"/a\": {},},}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dirs, err := ProjectDirs("/home/u/.claude.json", data)
		if err != nil {
			var ie *engine.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %T: %v", err, err)
			}
			return
		}
		if !sort.StringsAreSorted(dirs) {
			t.Fatalf("unsorted %v", dirs)
		}
	})
}
