package main

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"

	"github.com/kardianos/service"

	"github.com/descriptorpin/descriptorpin/config"
)

// The service managers 'descriptorpin service' knows by a friendly name,
// mapped to kardianos/service's system names. A name that is not listed
// here is accepted as kardianos spells it (service.AvailableSystems).
var managerPlatforms = []struct{ name, platform string }{
	{"systemd", "linux-systemd"},
	{"launchd", "darwin-launchd"},
	{"windows-service", "windows-service"},
	{"openrc", "linux-openrc"},
	{"upstart", "linux-upstart"},
	{"rcs", "linux-rcs"},
	{"procd", "linux-procd"},
	{"sysv", "unix-systemv"},
}

// Service names. launchd wants a reverse-DNS label; everything else uses
// the program's name (descriptorpin.service, the Windows service name).
const (
	serviceName        = "descriptorpin"
	launchdLabel       = "com.github.descriptorpin"
	serviceDisplayName = "DescriptorPin"
	serviceDescription = "DescriptorPin: watch MCP tool descriptors and client configs against the pin"
	docsURL            = "https://github.com/descriptorpin/descriptorpin/blob/main/docs/operations.md"
)

// manager is the service manager a 'service' subcommand drives.
type manager struct {
	name     string // friendly name: systemd, launchd, windows-service, ...
	platform string // kardianos' name: linux-systemd, darwin-launchd, ...
	forced   bool   // chosen with --manager rather than detected
}

func friendlyManager(platform string) string {
	for _, m := range managerPlatforms {
		if m.platform == platform {
			return m.name
		}
	}
	return platform
}

func platformOf(name string) string {
	for _, m := range managerPlatforms {
		if m.name == name || m.platform == name {
			return m.platform
		}
	}
	return name
}

// perUser says whether the manager can run a service as the user who
// installs it, in that user's session.
func (m manager) perUser() bool { return m.name == "systemd" || m.name == "launchd" }

// forcedSystem makes kardianos use a system whose detection failed: a
// container or a CI machine runs no systemd, but the unit can still be
// written (and the tests need it).
type forcedSystem struct{ service.System }

func (forcedSystem) Detect() bool { return true }

// availableManagers lists the friendly names kardianos offers on this OS.
func availableManagers() []string {
	var names []string
	for _, s := range service.AvailableSystems() {
		names = append(names, friendlyManager(s.String()))
	}
	sort.Strings(names)
	return names
}

// chooseManager selects the service manager: the one named (forced even
// when kardianos would not detect it), else the one kardianos detects.
func chooseManager(name string) (manager, error) {
	if name == "" {
		s := service.ChosenSystem()
		if s == nil {
			return manager{}, &usageError{cmd: "service", msg: "no service manager detected on this machine",
				hint: "choose one with --manager (" + strings.Join(availableManagers(), ", ") + ")"}
		}
		return manager{name: friendlyManager(s.String()), platform: s.String()}, nil
	}
	want := platformOf(name)
	for _, s := range service.AvailableSystems() {
		if s.String() == want {
			service.ChooseSystem(forcedSystem{s})
			return manager{name: friendlyManager(want), platform: want, forced: true}, nil
		}
	}
	return manager{}, &usageError{cmd: "service",
		msg:  fmt.Sprintf("service manager %q is not available on %s", name, runtime.GOOS),
		hint: "available here: " + strings.Join(availableManagers(), ", ")}
}

// unitPath is the file the manager's install writes, as kardianos computes
// it; "" for a manager that keeps its services elsewhere (Windows: the
// registry).
func unitPath(m manager, system bool) (string, error) {
	name := svcNameFor(m)
	switch m.name {
	case "systemd":
		if system {
			return "/etc/systemd/system/" + name + ".service", nil
		}
		home, err := os.UserHomeDir() // as kardianos does
		if err != nil {
			return "", err
		}
		return filepath.Join(home, ".config", "systemd", "user", name+".service"), nil
	case "launchd":
		if system {
			return "/Library/LaunchDaemons/" + name + ".plist", nil
		}
		home, err := launchdHome()
		if err != nil {
			return "", err
		}
		return home + "/Library/LaunchAgents/" + name + ".plist", nil
	case "upstart":
		return "/etc/init/" + name + ".conf", nil
	case "sysv", "openrc", "rcs", "procd":
		return "/etc/init.d/" + name, nil
	}
	return "", nil
}

// launchdHome is the home directory kardianos' launchd code uses.
func launchdHome() (string, error) {
	if u, err := user.Current(); err == nil && u.HomeDir != "" {
		return u.HomeDir, nil
	}
	if h := os.Getenv("HOME"); h != "" {
		return h, nil
	}
	return "", errors.New("home directory not found")
}

func svcNameFor(m manager) string {
	if m.name == "launchd" {
		return launchdLabel
	}
	return serviceName
}

// wantsDir is the directory 'systemctl enable' links the unit into.
func wantsDir(m manager, system bool, unit string) string {
	if m.name != "systemd" || unit == "" {
		return ""
	}
	if system {
		return filepath.Join(filepath.Dir(unit), "multi-user.target.wants")
	}
	return filepath.Join(filepath.Dir(unit), "default.target.wants")
}

// serviceArgs is what the service manager runs after the executable.
// Windows runs 'service run', which answers the service control manager
// and then runs watch; everything else runs watch itself.
func serviceArgs(m manager, cfgPath string) []string {
	if m.name == "windows-service" {
		return []string{"service", "run", "--config", cfgPath}
	}
	return []string{"watch", "--config", cfgPath}
}

// systemdUserUnit and systemdSystemUnit are the unit templates
// (kardianos' mini template language; see its KeyValue docs). kardianos'
// own template is for system services (WantedBy=multi-user.target,
// Restart=always, RestartSec=120), and its ConditionFileIsExecutable
// line breaks on a path with a space; these are the units the issue
// asks for.
const systemdUnitHead = `# Written by 'descriptorpin service install'.
# 'descriptorpin service uninstall' removes it; the pin, the state and the
# events stay.
[Unit]
Description={{Description}}
Documentation=` + docsURL + `
StartLimitIntervalSec=300
StartLimitBurst=5

[Service]
Type=simple
{{if UserName}}User={{UserName}}
{{end}}ExecStart={{Path | cmd}}{{range Arguments}} {{. | cmd}}{{end}}
Restart=on-failure
RestartSec=10s
# Exit status 2 is a usage or configuration error: a restart cannot fix it.
RestartPreventExitStatus=2
{{range EnvVars}}{{.}}
{{end}}
[Install]
`

const (
	systemdUserUnit   = systemdUnitHead + "WantedBy=default.target\n"
	systemdSystemUnit = systemdUnitHead + "WantedBy=multi-user.target\n"
)

// unitMarker is in every unit install writes: uninstall removes a unit
// only when it carries the marker or the install record names it.
const unitMarker = "# Written by 'descriptorpin service install'."

// systemdEscape makes s literal inside a quoted ExecStart argument:
// systemd expands % specifiers and $VARIABLES there and reads C escapes,
// and kardianos' cmd quoting only escapes the double quote.
func systemdEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `%%`, `$`, `$$`).Replace(s)
}

// systemdEscapeExec is systemdEscape for the executable, the first word of
// ExecStart, where systemd substitutes no variables (so $$ would stay $$).
func systemdEscapeExec(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `%%`).Replace(s)
}

// serviceConfig is the kardianos configuration for this manager.
func serviceConfig(m manager, system bool, exe, cfgPath, stateDir string) *service.Config {
	args := serviceArgs(m, cfgPath)
	c := &service.Config{
		Name:        svcNameFor(m),
		DisplayName: serviceDisplayName,
		Description: serviceDescription,
		Executable:  exe,
		Arguments:   args,
		Option:      service.KeyValue{"UserService": !system},
	}
	switch m.name {
	case "systemd":
		c.Executable = systemdEscapeExec(exe)
		c.Arguments = nil
		for _, a := range args {
			c.Arguments = append(c.Arguments, systemdEscape(a))
		}
		if system {
			c.Option["SystemdScript"] = systemdSystemUnit
			c.UserName = currentUser()
		} else {
			c.Option["SystemdScript"] = systemdUserUnit
		}
	case "launchd":
		c.Option["RunAtLoad"] = true
		c.Option["KeepAlive"] = true
		// The agent's stdout and stderr go to the state directory, not to
		// the home directory, which is kardianos' default for agents.
		c.Option["LogDirectory"] = stateDir
	case "windows-service":
		c.Option["OnFailure"] = "restart"
		c.Option["OnFailureDelayDuration"] = "10s"
		c.Option["OnFailureResetPeriod"] = 3600
		c.Option["DelayedAutoStart"] = true
		// The service runs as LocalSystem; these make the config's
		// defaults, '~' and client discovery resolve to the installing
		// user's profile rather than the system profile.
		c.EnvVars = map[string]string{}
		for _, k := range []string{"USERPROFILE", "APPDATA", "LOCALAPPDATA"} {
			if v := os.Getenv(k); v != "" {
				c.EnvVars[k] = v
			}
		}
	}
	return c
}

// stderrLine matches the example config's log.stderr line.
var stderrLine = regexp.MustCompile(`(?m)^(\s*)stderr:\s*true\b.*$`)

// exampleConfigFor is the config install writes when there is none: the
// commented example, with stderr off where the service's stderr is a file
// nobody rotates (launchd) or goes nowhere (a Windows service). Under
// systemd stderr is the journal, so it stays on.
func exampleConfigFor(m manager) string {
	if m.name == "launchd" || m.name == "windows-service" {
		return stderrLine.ReplaceAllString(config.Example,
			"${1}stderr: false      # off: under "+m.name+" stderr is not rotated; the file above is the record")
	}
	return config.Example
}

// controlHint is the manager's own command for an action, shown with a
// failure (kardianos does not pass on the tool's error output).
func controlHint(m manager, system bool, action string) string {
	name := svcNameFor(m)
	switch m.name {
	case "systemd":
		user := " --user"
		if system {
			user = ""
		}
		if action == "install" {
			action = "enable"
		}
		return "systemctl" + user + " " + action + " " + name + ".service"
	case "launchd":
		return "launchctl list " + name
	case "windows-service":
		return "sc.exe query " + name
	}
	return ""
}
