// Package clientfs does the I/O that engine/sources leaves out: it reads
// the files MCP clients keep their tool lists in, without harm to the
// client. It never writes a client's file and never holds a lock a client
// could wait on:
//
//   - a VS Code state.vscdb is copied (database and -wal, checked to be
//     stable across the copy) into a private temporary folder, and only
//     the copy is opened, read-only;
//   - a Claude Code log is read backwards from its end, at most a byte
//     bound, never whole;
//   - a Claude Desktop log is read forward from a remembered offset, and
//     from the start again when it shrinks or is replaced;
//   - a Cursor mcps/ tree is walked without following symbolic links,
//     reading regular files only, each under a size cap.
//
// Nothing here logs: what it reads from logs can hold secrets.
package clientfs

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotRegular is returned for a path that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// openRegular opens path for reading if it is a regular file (after
// following links: a client's own config may be a link; what matters is
// that a FIFO or device cannot hang the reader).
func openRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	return f, fi, nil
}

// readCapped reads a whole regular file of at most max bytes.
func readCapped(path string, max int64) ([]byte, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > max {
		return nil, fmt.Errorf("%s: larger than the %d MiB cap", path, max>>20)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s: larger than the %d MiB cap", path, max>>20)
	}
	return b, nil
}
