//go:build !linux

package capture

// adoptOrphans and sweepOrphans do nothing here: macOS and Windows have no
// unprivileged way to keep a process that left its group (macOS) or its
// parent (Windows) as a descendant; see docs/security.md.
func adoptOrphans()                      {}
func sweepOrphans(isLive func(int) bool) {}
