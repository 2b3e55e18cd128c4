package fileio

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/descriptorpin/descriptorpin/engine"
)

func TestWriteAtomicReplacesAndKeepsPermissions(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pin.json")
	if err := WriteAtomic(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(p, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil || string(data) != "two" {
		t.Fatalf("read %q, %v", data, err)
	}
	if st, _ := os.Stat(p); runtime.GOOS != "windows" && st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the existing 0640 kept", st.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestWriteAtomicWithTempDirLeavesNothingBehindOnFailure(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	err := WriteAtomicWith(filepath.Join(dir, "missing", "x.json"), []byte("x"), 0o600, Options{TempDir: tmp, NoDirSync: true})
	if err == nil {
		t.Fatal("a write into a missing directory succeeded")
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestReadCappedRefusesBigFilesAndDirectories(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "big")
	if err := os.WriteFile(p, make([]byte, 2<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	var ie *engine.InputError
	if _, err := ReadCapped("target", p, 1<<20); !errors.As(err, &ie) {
		t.Errorf("oversized file: %v, want an InputError", err)
	}
	if _, err := ReadCapped("target", dir, 1<<20); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	_, err := ReadCapped("pin", filepath.Join(dir, "none"), 1<<20)
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "cannot read pin ") {
		t.Errorf("missing file: %v", err)
	}
}

func TestLinkTargetFollowsLinksAndRefusesDanglingOnes(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	if err := os.WriteFile(real, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, linked, err := LinkTarget(real); got != real || linked || err != nil {
		t.Errorf("regular file: %q %v %v", got, linked, err)
	}
	if got, linked, err := LinkTarget(filepath.Join(dir, "new.json")); got != filepath.Join(dir, "new.json") || linked || err != nil {
		t.Errorf("missing file: %q %v %v", got, linked, err)
	}
	link, chain := filepath.Join(dir, "link.json"), filepath.Join(dir, "chain.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	_ = os.Symlink(link, chain)
	want, _ := filepath.EvalSymlinks(real)
	if got, linked, err := LinkTarget(chain); got != want || !linked || err != nil {
		t.Errorf("chain of links: %q %v %v, want %q", got, linked, err, want)
	}
	dangling := filepath.Join(dir, "dangling.json")
	_ = os.Symlink(filepath.Join(dir, "nowhere"), dangling)
	if _, linked, err := LinkTarget(dangling); !linked || err == nil {
		t.Errorf("dangling link: linked %v err %v", linked, err)
	}
}

// readSized returns exactly the bytes it is given whatever the size hint
// says (a file that grew or shrank since its stat), and stops one byte
// past the limit so the caller sees the cap.
func TestReadSized(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 1000)
	for _, hint := range []int64{0, 10, 9999, 10000, 20000, -1} {
		got, err := readSized(bytes.NewReader(data), hint, 1<<20)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("hint %d: %d bytes, %v", hint, len(got), err)
		}
	}
	got, err := readSized(bytes.NewReader(data), 100, 5000)
	if err != nil || len(got) != 5001 {
		t.Fatalf("limit 5000: %d bytes, %v; want 5001", len(got), err)
	}
}

// ReadInput reads all of standard input ("-") up to the cap, and
// refuses one byte more with an input error naming "-"; a failed read
// says what was being read. Any other name is a file, read as
// ReadWithMode reads it (standard input untouched).
func TestReadInput(t *testing.T) {
	data, mode, err := ReadInput(strings.NewReader("abcd"), "pin", "-", 4)
	if err != nil || string(data) != "abcd" || mode != 0 {
		t.Fatalf("at the cap: %q, %v, %v", data, mode, err)
	}
	_, _, err = ReadInput(strings.NewReader(strings.Repeat("x", 1<<20+1)), "inventory", "-", 1<<20)
	var ie *engine.InputError
	if !errors.As(err, &ie) || ie.File != "-" || ie.Msg != "standard input is larger than the 1 MiB cap" {
		t.Fatalf("past the cap: %v", err)
	}
	_, _, err = ReadInput(iotest.ErrReader(io.ErrUnexpectedEOF), "pin", "-", 10)
	if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.HasPrefix(err.Error(), "reading pin from standard input: ") {
		t.Fatalf("a failed read: %v", err)
	}
	path := filepath.Join(t.TempDir(), "inv.json")
	if err := os.WriteFile(path, []byte("{}"), 0o640); err != nil {
		t.Fatal(err)
	}
	stdin := strings.NewReader("not read")
	data, mode, err = ReadInput(stdin, "inventory", path, 10)
	if err != nil || string(data) != "{}" || stdin.Len() != len("not read") || runtime.GOOS != "windows" && mode != 0o640 {
		t.Fatalf("a file: %q, %v, %v", data, mode, err)
	}
	if _, _, err := ReadInput(stdin, "inventory", path, 1); err == nil {
		t.Fatal("a file past the cap was read")
	}
}
