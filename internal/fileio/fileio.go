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
	"sync"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file (a FIFO, a device, a socket, or a symlink to one): reading one can
// block forever (a FIFO with no writer, /dev/ptmx) or never end
// (/dev/zero), so it is refused before it is opened.
var ErrNotRegular = errors.New("not a regular file")

// ErrTimeout is wrapped by the error for a read that took longer than
// ReadTimeout (a hung network file system, a FUSE file that never answers).
var ErrTimeout = errors.New("the read took too long")

// ReadTimeout bounds the time one capped read may take, open to last
// byte, plus a second for every MinReadRate bytes of the file's size once
// it is known: a large file that reads steadily (an 80 MB pin on a loaded
// machine) is not cut off, while a read that stalls (a hung network file
// system, a FUSE file that never answers) is abandoned, its file closed,
// so one hostile file cannot stall the service's loop for long: a file at
// the 64 MiB cap gets at most 21 s.
var ReadTimeout = 5 * time.Second

// MinReadRate is the slowest read a large file is allowed (bytes a
// second) before its read counts as stalled.
const MinReadRate = 4 << 20

// readBudget is how long a read of a file of size bytes may take.
func readBudget(size int64) time.Duration {
	if size <= 0 {
		return ReadTimeout
	}
	return ReadTimeout + time.Duration(size)*time.Second/MinReadRate
}

// ReadCapped reads a whole regular file, refusing one larger than limit
// before reading it. what names the file in errors ("pin", "target").
func ReadCapped(what, path string, limit int64) ([]byte, error) {
	data, _, err := ReadWithMode(what, path, limit)
	return data, err
}

// ReadInput reads a file named on the command line under limit, or r
// for "-", its name for standard input: past limit bytes, standard input
// is an input error naming "-" (a file is refused as ReadWithMode does).
// what names it in errors ("pin", "inventory").
func ReadInput(r io.Reader, what, path string, limit int64) ([]byte, fs.FileMode, error) {
	if path != "-" {
		return ReadWithMode(what, path, limit)
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, 0, fmt.Errorf("reading %s from standard input: %w", what, err)
	}
	if int64(len(data)) > limit {
		return nil, 0, &engine.InputError{File: "-", Msg: fmt.Sprintf("standard input is larger than the %d MiB cap", limit>>20)}
	}
	return data, 0, nil
}

// ReadWithMode is ReadCapped that also returns the file's permission bits
// (zero where they mean nothing, on Windows), for the writable_config rule.
func ReadWithMode(what, path string, limit int64) ([]byte, fs.FileMode, error) {
	return ReadFrom(Open, what, path, limit)
}

// Open opens a file for reading only if it is a regular file: the path
// (following symlinks) is checked before it is opened, it is opened
// without blocking (O_NONBLOCK where the OS has it, so a FIFO swapped in
// after the check cannot hang the open), and what was opened is checked
// again. Anything else is an error wrapping ErrNotRegular.
func Open(path string) (fs.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		return nil, notRegular(path, st.Mode())
	}
	f, err := openNoBlock(path)
	if err != nil {
		return nil, err
	}
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		f.Close()
		return nil, notRegular(path, st.Mode())
	}
	return f, nil
}

// notRegular names what a path is instead of a regular file.
func notRegular(path string, m fs.FileMode) error {
	what := "special file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		what = "named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		what = "character device"
	case m&fs.ModeDevice != 0:
		what = "block device"
	case m&fs.ModeSocket != 0:
		what = "socket"
	case m&fs.ModeIrregular != 0:
		what = "irregular file"
	}
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w: it is a %s; refusing to read it", ErrNotRegular, what)}
}

// ReadFrom is ReadWithMode over any file system: open opens path. What
// open returns is read only if it is a regular file, at most limit bytes
// and within ReadTimeout.
func ReadFrom(open func(string) (fs.File, error), what, path string, limit int64) ([]byte, fs.FileMode, error) {
	type result struct {
		data []byte
		mode fs.FileMode
		err  error
	}
	done := make(chan result, 1)
	sized := make(chan int64, 1)
	var mu sync.Mutex
	var opened fs.File
	abandoned := false
	go func() {
		f, err := open(path)
		if err != nil {
			done <- result{err: FileErr(what, path, err)}
			return
		}
		mu.Lock()
		if abandoned {
			mu.Unlock()
			f.Close()
			return
		}
		opened = f
		mu.Unlock()
		defer f.Close()
		if st, err := f.Stat(); err == nil {
			sized <- st.Size()
		}
		data, mode, err := readOpen(f, what, path, limit)
		done <- result{data, mode, err}
	}()
	start := time.Now()
	budget := ReadTimeout
	timer := time.NewTimer(budget)
	defer settleTimer(timer)
	for {
		select {
		case r := <-done:
			return r.data, r.mode, r.err
		case n := <-sized:
			// The size is known: the budget grows with it (readBudget).
			budget = readBudget(n)
			timer.Reset(budget - time.Since(start))
		case <-timer.C:
			mu.Lock()
			abandoned = true
			if opened != nil {
				opened.Close() // unblocks a read where the OS can
			}
			mu.Unlock()
			return nil, 0, fmt.Errorf("cannot read %s %q: %w (more than %s)", what, sanitize.Text(path), ErrTimeout, budget.Round(time.Second))
		}
	}
}

// settleTimer retires a read's budget timer by firing it now and taking
// its tick, rather than stopping it. The runtime forgets a stopped timer
// lazily: its heap keeps the old deadline (a zombie entry, or, once the
// timer was Reset, a lower bound on the heap's next deadline that only a
// check at or past that deadline clears), and an idle process is woken
// then, about ReadTimeout after its last read, for nothing (issue 16: an
// idle service wakes only for its own timers). A timer that has fired
// leaves its heap as if it had never been armed.
func settleTimer(t *time.Timer) {
	t.Reset(0)
	<-t.C
}

func readOpen(f fs.File, what, path string, limit int64) ([]byte, fs.FileMode, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, 0, FileErr(what, path, err)
	}
	if st.IsDir() {
		return nil, 0, fmt.Errorf("cannot read %s %q: it is a directory", what, sanitize.Text(path))
	}
	if !st.Mode().IsRegular() {
		return nil, 0, FileErr(what, path, notRegular(path, st.Mode()))
	}
	if st.Size() > limit {
		return nil, 0, &engine.InputError{File: path, Msg: fmt.Sprintf("file is %d bytes, larger than the %d MiB cap", st.Size(), limit>>20)}
	}
	data, err := readSized(f, st.Size(), limit)
	if err != nil {
		return nil, 0, FileErr(what, path, err)
	}
	if int64(len(data)) > limit {
		return nil, 0, &engine.InputError{File: path, Msg: fmt.Sprintf("file is larger than the %d MiB cap (it grew while it was read)", limit>>20)}
	}
	mode := st.Mode().Perm()
	if runtime.GOOS == "windows" {
		mode = 0
	}
	return data, mode, nil
}

// readSized reads up to limit+1 bytes into one buffer of the size the
// file says it has (plus a little, to see a file that grew), instead of
// io.ReadAll's doubling: a 33 MB pin read once, not into 64 MB of
// discarded halves.
func readSized(r io.Reader, size, limit int64) ([]byte, error) {
	if size < 0 {
		size = 0
	}
	n := size + 512
	if n > limit+1 {
		n = limit + 1
	}
	buf := make([]byte, 0, n)
	lr := io.LimitReader(r, limit+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // grown only if the file grew
		}
		k, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
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

// SameFile reports whether two paths name one existing file (through
// links, hard links and different spellings alike).
func SameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}
