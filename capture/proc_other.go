//go:build !unix && !windows

package capture

import "os/exec"

func setGroup(cmd *exec.Cmd)            {}
func terminateGroup(cmd *exec.Cmd) bool { return false }
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
