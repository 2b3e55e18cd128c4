//go:build unix

package capture

import (
	"os/exec"
	"syscall"
)

// setGroup starts the server as the leader of a new process group, so that
// signals reach whatever it starts, and a Ctrl-C at the terminal reaches
// descriptorpin alone (which then stops the server itself).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminateGroup sends SIGTERM to the server's process group; false when
// there was nothing to signal.
func terminateGroup(cmd *exec.Cmd) bool {
	if cmd.Process == nil {
		return false
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) == nil
}

// killGroup sends SIGKILL to the server's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) != nil {
		_ = cmd.Process.Kill()
	}
}
