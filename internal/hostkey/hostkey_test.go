package hostkey

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

func TestLoadOrCreateMakesOnePrivateKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", FileName)
	if _, err := Load(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Load of a missing key: %v", err)
	}
	var wg sync.WaitGroup
	ids := make([]string, 8)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := LoadOrCreate(path)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = k.ID()
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] || id == "" {
			t.Fatalf("concurrent creators disagree: %v", ids)
		}
	}
	st, _ := os.Stat(path)
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("mode %04o, want 0600", st.Mode().Perm())
	}
	k, err := Load(path)
	if err != nil || len(k) != Size || k.ID() != ids[0] {
		t.Fatalf("Load after create: %v", err)
	}
}

func TestLoadRefusesAWeakOrExposedKey(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short")
	os.WriteFile(short, []byte("abcd\n"), 0o600)
	if _, err := Load(short); err == nil {
		t.Error("a short key loads")
	}
	if runtime.GOOS == "windows" {
		return
	}
	open := filepath.Join(dir, "open")
	k, _ := LoadOrCreate(filepath.Join(dir, "k"))
	os.WriteFile(open, []byte(hexOf(k)), 0o644)
	os.Chmod(open, 0o644)
	if _, err := Load(open); !errors.Is(err, ErrInsecure) {
		t.Errorf("a world-readable key: %v", err)
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
