package watcher

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
)

// kind says what an event on a watched name means for a target.
type kind uint8

const (
	// kindStep: the name is the next missing directory on the way to the
	// target; an event on it means "re-plan", not "the target changed".
	kindStep kind = iota + 1
	// kindFile: the name is the target, a symlink in its chain, or its real
	// file; any event on it means "the target may have changed".
	kindFile
)

// plan is what to watch for one target. Directories are resolved with
// filepath.EvalSymlinks so each physical directory is watched under one name
// (the backends report events under the name a watch was added with).
type plan struct {
	dirs  map[string]bool // directories to watch
	names map[string]kind // paths under those directories that concern the target
	ready bool            // the target's own parent directory exists
}

// computePlan resolves target from the filesystem as it is now: its parent
// directory (or nearest existing ancestor), then each hop of its symlink
// chain, each hop through its own parent directory.
func computePlan(target string) plan {
	p := plan{dirs: map[string]bool{}, names: map[string]kind{}}
	p.ready = p.addFile(target)
	seen := map[string]bool{target: true}
	cur := target
	for range maxSymlinkHops {
		fi, err := os.Lstat(cur)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			break
		}
		dest, err := os.Readlink(cur)
		if err != nil {
			break
		}
		if !filepath.IsAbs(dest) {
			// Relative to the link's real directory, as the kernel reads it,
			// not to a lexical parent that may itself be a symlink.
			dest = filepath.Join(resolveDir(filepath.Dir(cur)), dest)
		}
		cur = filepath.Clean(dest)
		if seen[cur] {
			break // a loop: every hop is already watched
		}
		seen[cur] = true
		p.addFile(cur)
	}
	return p
}

// addFile watches the directory of file f, or, if that directory is missing,
// its nearest existing ancestor with a step interest in the next path
// component. It reports whether f's own directory exists.
func (p *plan) addFile(f string) bool {
	dir, name, k := filepath.Dir(f), filepath.Base(f), kindFile
	for !isDir(dir) {
		up := filepath.Dir(dir)
		if up == dir {
			return false // not even the root exists (a missing volume)
		}
		dir, name, k = up, filepath.Base(dir), kindStep
	}
	dir = resolveDir(dir)
	p.dirs[dir] = true
	key := filepath.Join(dir, name)
	p.names[key] = max(p.names[key], k)
	return k == kindFile
}

func (p plan) equal(q plan) bool {
	return p.ready == q.ready && maps.Equal(p.dirs, q.dirs) && maps.Equal(p.names, q.names)
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// resolveDir returns the real path of an existing directory, or dir itself
// if it cannot be resolved.
func resolveDir(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return dir
}
