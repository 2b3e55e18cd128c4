package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

func osGetenv(k string) string { return os.Getenv(k) }

// readCapped reads a whole regular file, refusing one larger than limit
// before reading it.
func readCapped(what, path string, limit int64) ([]byte, error) {
	data, _, err := readWithMode(what, path, limit)
	return data, err
}

// readWithMode is readCapped that also returns the file's permission bits
// (zero where they mean nothing, on Windows), for the writable_config rule.
func readWithMode(what, path string, limit int64) ([]byte, fs.FileMode, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fileErr(what, path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, fileErr(what, path, err)
	}
	if st.IsDir() {
		return nil, 0, fmt.Errorf("cannot read %s %q: it is a directory", what, sanitize.Text(path))
	}
	if st.Mode().IsRegular() && st.Size() > limit {
		return nil, 0, &engine.InputError{File: path, Msg: fmt.Sprintf("file is %d bytes, larger than the %d MiB cap", st.Size(), limit>>20)}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, 0, fileErr(what, path, err)
	}
	if int64(len(data)) > limit {
		return nil, 0, &engine.InputError{File: path, Msg: fmt.Sprintf("file is larger than the %d MiB cap", limit>>20)}
	}
	mode := st.Mode().Perm()
	if runtime.GOOS == "windows" {
		mode = 0
	}
	return data, mode, nil
}

func fileErr(what, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot read %s %q: %w", what, sanitize.Text(path), err)
}

// loadInventory reads and parses an inventory or an MCP client config;
// it also returns the file's mode for the writable_config rule and which
// of the two kinds the file is.
func loadInventory(path string) (*engine.Inventory, fs.FileMode, string, error) {
	data, mode, err := readWithMode("inventory", path, engine.MaxFileBytes)
	if err != nil {
		return nil, 0, "", err
	}
	inv, kind, err := parseAny(path, data, kindAuto)
	return inv, mode, kind, err
}

// loadPin reads, parses and verifies a pin file.
func loadPin(path string) (*pin.Pin, error) {
	data, err := readCapped("pin", path, engine.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	return pin.Load(path, data)
}

// writeAtomic replaces path with data so that a reader (or a crash) sees
// either the old file or the new one, never a mix: write a temporary file
// in the same directory, fsync it, rename it over the target, fsync the
// directory. An existing file's permissions are kept.
func writeAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %q: %w", sanitize.Text(path), err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("writing %q: %w", sanitize.Text(path), err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("writing %q: %w", sanitize.Text(path), err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing %q: %w", sanitize.Text(path), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %q: %w", sanitize.Text(path), err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("writing %q: %w", sanitize.Text(path), err)
	}
	ok = true
	syncDir(dir)
	return nil
}

// syncDir makes a rename durable; not every platform can open a directory
// for sync, and failing to is not an error.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
