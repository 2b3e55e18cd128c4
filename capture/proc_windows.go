//go:build windows

package capture

import (
	"os/exec"
	"syscall"
)

// setGroup starts the server in a new process group, so a Ctrl-C at the
// console reaches descriptorpin alone (which then stops the server).
// Windows has no group-wide kill here: children a launcher started are not
// signalled (see the package documentation).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// terminateGroup has no graceful form on this OS: the caller kills.
func terminateGroup(cmd *exec.Cmd) bool { return false }

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
