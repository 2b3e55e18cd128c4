//go:build windows

package notify

import (
	"os/exec"
	"syscall"
)

// platformNotifier: Windows shows a toast through PowerShell.
func platformNotifier(opt DesktopOptions) notifier { return toastNotifier(opt.AppName) }

// hideWindow keeps PowerShell from flashing a console window.
func hideWindow(cmd *exec.Cmd) {
	const createNoWindow = 0x08000000
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
}
