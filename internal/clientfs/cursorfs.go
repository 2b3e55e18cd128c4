package clientfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/descriptorpin/descriptorpin/engine/sources"
)

// NoLinkFS returns an fs.FS over dir that cannot leave it (os.Root) and
// refuses to open a symbolic link or anything but a regular file or a
// folder: a project folder an attacker wrote may hold links to ~/.ssh or
// a FIFO that would hang a reader.
func NoLinkFS(dir string) (fs.FS, func() error, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	return noLinkFS{r}, r.Close, nil
}

type noLinkFS struct{ r *os.Root }

var errLink = errors.New("symbolic link or special file refused")

func (n noLinkFS) check(name string) error {
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	// Every component: a link in the middle would be followed by Open.
	for p := name; p != "." && p != "/"; p = path.Dir(p) {
		fi, err := n.r.Lstat(p)
		if err != nil {
			return err
		}
		if m := fi.Mode(); !m.IsRegular() && !m.IsDir() {
			return &fs.PathError{Op: "open", Path: name, Err: errLink}
		}
	}
	return nil
}

func (n noLinkFS) Open(name string) (fs.File, error) {
	if err := n.check(name); err != nil {
		return nil, err
	}
	return n.r.Open(name)
}

func (n noLinkFS) Stat(name string) (fs.FileInfo, error) {
	if err := n.check(name); err != nil {
		return nil, err
	}
	return n.r.Lstat(name)
}

// ReadCursorMCPs reads one Cursor mcps/ folder (~/.cursor/mcps, or
// ~/.cursor/projects/<slug>/mcps) through NoLinkFS.
func ReadCursorMCPs(dir string) ([]sources.Server, []sources.Mismatch, error) {
	fsys, closeFS, err := NoLinkFS(dir)
	if err != nil {
		return nil, nil, err
	}
	defer closeFS()
	return sources.ParseCursorMCPs(fsys, ".")
}

// ReadMCPB reads a Claude Desktop extension's manifest.json; the server
// is named by the extension's folder.
func ReadMCPB(manifest string) (sources.Server, error) {
	data, err := readCapped(manifest, 16<<20)
	if err != nil {
		return sources.Server{}, err
	}
	return sources.ParseMCPB(manifest, filepath.Base(filepath.Dir(manifest)), data)
}
