//go:build unix

package clientfs

import (
	"fmt"
	"os"
	"syscall"
)

// fileIdentity names the file behind fi across renames: device and inode.
func fileIdentity(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", uint64(st.Dev), uint64(st.Ino))
	}
	return ""
}
