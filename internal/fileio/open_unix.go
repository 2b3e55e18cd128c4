//go:build unix

package fileio

import (
	"os"
	"syscall"
)

// openNoBlock opens path read-only with O_NONBLOCK (a FIFO opens at once
// instead of waiting for a writer) and O_NOCTTY (a terminal device never
// becomes the controlling terminal). For a regular file O_NONBLOCK
// changes nothing, so it is left set.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}
