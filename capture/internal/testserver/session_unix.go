//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// newSession starts cmd in a session of its own (setsid): out of its
// parent's process group and session.
func newSession(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
