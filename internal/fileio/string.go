package fileio

import "unsafe"

// AsString returns data as a string without copying it, for a buffer
// that a read has just returned and that nothing else holds: the caller
// gives data up, and neither it nor anything else may write to it again
// (a string must never change). A 33 MB pin read with ReadWithMode and
// parsed as a string (pin.LoadString) is then in memory once, not twice.
func AsString(data []byte) string {
	return unsafe.String(unsafe.SliceData(data), len(data))
}
