package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func init() {
	// No test of this package shows a notification on the desktop of the
	// person running it: services started by the tests get no session
	// bus and, unless their config says otherwise, no desktop sink (see
	// svc.start), unless a test hands them its own bus.
	os.Unsetenv("DBUS_SESSION_BUS_ADDRESS")
}

// noDesktopYAML turns the desktop sink off in a config that does not
// configure notifications itself.
const noDesktopYAML = "notify:\n  desktop:\n    enabled: false\n"

// quietDesktop appends noDesktopYAML to a config without a notify section.
func (s *svc) quietDesktop() {
	s.t.Helper()
	base, err := os.ReadFile(s.cfg)
	if err != nil {
		s.t.Fatal(err)
	}
	if !strings.Contains("\n"+string(base), "\nnotify:") {
		s.writeConfig(noDesktopYAML)
	}
}

// writeConfig rewrites the service config with extra YAML appended.
func (s *svc) writeConfig(extra string) {
	s.t.Helper()
	base, err := os.ReadFile(s.cfg)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(s.cfg, append(base, extra...), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// command is the binary with args.
func (s *svc) command(args ...string) *exec.Cmd {
	return exec.Command(filepath.Join(binDir, "descriptorpin"), args...)
}

// exitOf is a finished command's exit code.
func exitOf(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
