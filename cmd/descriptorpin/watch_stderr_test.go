package main

import (
	"bytes"
	"testing"
)

// Issue 12: watch hands its stderr to the service, so "cannot write
// events" reaches the command's stderr (a test's, or the service
// manager's capture), not the process's os.Stderr behind its back.
func TestWatchGivesTheServiceItsStderr(t *testing.T) {
	var buf bytes.Buffer
	e := &env{stderr: &buf}
	if opt := watchOptions(e); opt.Stderr != e.stderr {
		t.Errorf("service.Options.Stderr = %v, want the command's stderr", opt.Stderr)
	}
}
