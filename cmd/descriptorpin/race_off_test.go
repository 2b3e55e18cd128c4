//go:build !race

package main

import "testing"

// skipUnderRace runs the check: this build has no race detector.
func skipUnderRace(t *testing.T) { t.Helper() }
