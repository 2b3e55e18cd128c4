package fileio

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAsStringIsTheBytesRead(t *testing.T) {
	if s := AsString(nil); s != "" {
		t.Fatalf("AsString(nil) = %q", s)
	}
	path := filepath.Join(t.TempDir(), "pin.json")
	want := `{"tools": ["é", "\u00e9"]}` + "\n"
	if err := os.WriteFile(path, []byte(want), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := ReadCapped("pin", path, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if s := AsString(data); s != want || len(s) != len(data) {
		t.Fatalf("AsString = %q, want %q", s, want)
	}
}
