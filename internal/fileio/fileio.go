// Package fileio is the one place DescriptorPin reads and replaces files:
// capped reads of regular files (ReadCapped, ReadWithMode) and the atomic
// writer (WriteAtomic: temporary file, fsync, rename, directory fsync) that
// pins, the service state, the webhook spool and captured inventories use.
package fileio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// ReadCapped reads a whole regular file, refusing one larger than limit
// before reading it. what names the file in errors ("pin", "target").
func ReadCapped(what, path string, limit int64) ([]byte, error) {
	data, _, err := ReadWithMode(what, path, limit)
	return data, err
}

// ReadWithMode is ReadCapped that also returns the file's permission bits
// (zero where they mean nothing, on Windows), for the writable_config rule.
func ReadWithMode(what, path string, limit int64) ([]byte, fs.FileMode, error) {
	return ReadFrom(func(name string) (fs.File, error) { return os.Open(name) }, what, path, limit)
}

// ReadFrom is ReadWithMode over any file system: open opens path.
func ReadFrom(open func(string) (fs.File, error), what, path string, limit int64) ([]byte, fs.FileMode, error) {
	f, err := open(path)
	if err != nil {
		return nil, 0, FileErr(what, path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, FileErr(what, path, err)
	}
	if st.IsDir() {
		return nil, 0, fmt.Errorf("cannot read %s %q: it is a directory", what, sanitize.Text(path))
	}
	if st.Mode().IsRegular() && st.Size() > limit {
		return nil, 0, &engine.InputError{File: path, Msg: fmt.Sprintf("file is %d bytes, larger than the %d MiB cap", st.Size(), limit>>20)}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, 0, FileErr(what, path, err)
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

// FileErr is the error for a file that cannot be read: the cause without
// the *fs.PathError wrapping (the path is named once, escaped).
func FileErr(what, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot read %s %q: %w", what, sanitize.Text(path), err)
}

// Options tune WriteAtomicWith for a caller with a layout of its own.
type Options struct {
	// TempDir is where the temporary file is made; "" is path's
	// directory. It must be on the same file system as path.
	TempDir string
	// NoDirSync leaves the fsync of path's directory to the caller (the
	// webhook spool syncs it once off the service loop).
	NoDirSync bool
}

// WriteAtomic replaces path with data so that a reader (or a crash) sees
// either the old file or the new one, never a mix: write a temporary file
// in the same directory, fsync it, rename it over the target, fsync the
// directory. An existing file's permissions are kept; a new file gets perm.
func WriteAtomic(path string, data []byte, perm fs.FileMode) error {
	return WriteAtomicWith(path, data, perm, Options{})
}

// WriteAtomicWith is WriteAtomic with options.
func WriteAtomicWith(path string, data []byte, perm fs.FileMode, opt Options) error {
	dir := filepath.Dir(path)
	tmpDir := opt.TempDir
	if tmpDir == "" {
		tmpDir = dir
	}
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(tmpDir, "."+filepath.Base(path)+".tmp-*")
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
	if !opt.NoDirSync {
		SyncDir(dir)
	}
	return nil
}

// SyncDir makes a rename into dir durable; not every platform can open a
// directory for sync, and failing to is not an error.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// LinkTarget says which file a write to path should replace. For a path
// that is not a symbolic link (or does not exist) it is path itself and
// linked is false. For a link it is the file the chain of links ends at,
// and linked is true: replacing the link itself with a regular file, as a
// rename over it does, silently detaches whatever the link was for (a
// pin kept in a dotfiles repository or a shared folder). A link whose
// target does not exist is an error: where it points was chosen by
// whoever made the link, and nothing is created there.
func LinkTarget(path string) (target string, linked bool, err error) {
	st, err := os.Lstat(path)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return path, false, nil
	}
	target, err = filepath.EvalSymlinks(path)
	if err != nil {
		return "", true, fmt.Errorf("%q is a symbolic link to a file that does not exist", sanitize.Text(path))
	}
	return target, true, nil
}

// WriteThroughLink is WriteAtomic for a file that may be a symbolic link:
// a regular path is replaced as WriteAtomic does; a link is followed, and
// the file it ends at is replaced (the link stays) only when accept says
// that file is fit to be overwritten. A link planted in a project folder
// must not turn a write into one to whatever it points at (~/.bashrc), so
// accept's error is returned as is and nothing is written.
func WriteThroughLink(path string, data []byte, perm os.FileMode, accept func(target string) error) error {
	target, linked, err := LinkTarget(path)
	if err != nil {
		return err
	}
	if linked {
		if err := accept(target); err != nil {
			return err
		}
	}
	return WriteAtomic(target, data, perm)
}
