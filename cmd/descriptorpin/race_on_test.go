//go:build race

package main

import "testing"

// skipUnderRace skips a check whose size is the point (tens of thousands
// of tools through the real binary): the race detector makes it ten
// times slower and the same code paths run under -race in the smaller
// end-to-end tests. make test runs these checks once without -race
// (PLAINONLY in the Makefile).
func skipUnderRace(t *testing.T) {
	t.Helper()
	t.Skip("size check: make test runs it without -race")
}
