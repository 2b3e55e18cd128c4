//go:build !unix

package fileio

import "os"

// openNoBlock opens path read-only. Windows has no FIFOs in the file
// system namespace; the stat before the open refuses anything else.
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
