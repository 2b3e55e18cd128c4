//go:build !linux

package service

// releaseText is Linux's only (see hotset_linux.go).
func releaseText() {}

// residentBytes is Linux's only: elsewhere nothing is released.
func residentBytes() (int64, bool) { return 0, true }
