//go:build race

package detect

import "testing"

// skipUnderRace skips a single-goroutine check over the whole corpus:
// the race detector has nothing to find in it and makes it ten times
// slower. make test runs these checks once without -race (PLAINONLY in
// the Makefile); TestPoisonFromManyGoroutines is what -race checks here.
func skipUnderRace(t *testing.T) {
	t.Helper()
	t.Skip("single-goroutine corpus check: make test runs it without -race")
}
