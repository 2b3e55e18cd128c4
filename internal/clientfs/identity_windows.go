//go:build windows

package clientfs

import (
	"fmt"
	"os"
	"syscall"
)

// fileIdentity names the file behind fi: its creation time, which a
// rotation (a new file under the old name) changes.
func fileIdentity(fi os.FileInfo) string {
	if d, ok := fi.Sys().(*syscall.Win32FileAttributeData); ok {
		return fmt.Sprintf("c%d", d.CreationTime.Nanoseconds())
	}
	return ""
}
