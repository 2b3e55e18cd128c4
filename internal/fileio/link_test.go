package fileio

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A link is written through only when accept agrees; the link stays a
// link, a refusal writes nothing, and a regular path is plainly replaced.
func TestWriteThroughLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "pin.json")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("not a pin")
	if err := WriteThroughLink(link, []byte("evil"), 0o644, func(string) error { return refused }); !errors.Is(err, refused) {
		t.Fatalf("refusal: got %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "old" {
		t.Fatalf("a refused write changed the target to %q", b)
	}
	var asked string
	if err := WriteThroughLink(link, []byte("new"), 0o644, func(p string) error { asked = p; return nil }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" || asked != target {
		t.Fatalf("target %q, accept asked about %q", b, asked)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st.Mode(), err)
	}
	plain := filepath.Join(dir, "plain.json")
	if err := WriteThroughLink(plain, []byte("x"), 0o644, func(string) error { t.Fatal("accept asked about a regular path"); return nil }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(plain); string(b) != "x" {
		t.Fatalf("plain path holds %q", b)
	}
}
