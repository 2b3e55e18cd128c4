//go:build !linux

package service

// releaseText is Linux's only (see hotset_linux.go).
func releaseText() {}
