// Package installer installs, removes and controls DescriptorPin's per-user
// background service (systemd user unit, launchd LaunchAgent, Windows
// service) as three steps: BuildPlan says what would be written where and
// which commands would run, purely from its inputs; Apply carries a plan
// out (kardianos/service drives the manager); Render prints a plan, for
// 'descriptorpin service install --dry-run'. Uninstall removes exactly what
// install recorded, and nothing else.
package installer

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
	ServiceName        = "descriptorpin"
	launchdLabel       = "com.github.descriptorpin"
	serviceDisplayName = "DescriptorPin"
	serviceDescription = "DescriptorPin: watch MCP tool descriptors and client configs against the pin"
	docsURL            = "https://github.com/descriptorpin/descriptorpin/blob/main/docs/operations.md"
)

// Manager is the service manager a 'service' subcommand drives.
type Manager struct {
	Name     string // friendly name: systemd, launchd, windows-service, ...
	Platform string // kardianos' name: linux-systemd, darwin-launchd, ...
	Forced   bool   // chosen with --manager rather than detected
}

// FriendlyManager is the friendly name of a kardianos system name.
func FriendlyManager(platform string) string {
	for _, m := range managerPlatforms {
		if m.platform == platform {
			return m.name
		}
	}
	return platform
}

// PlatformOf is the kardianos system name of a friendly (or kardianos) name.
func PlatformOf(name string) string {
	for _, m := range managerPlatforms {
		if m.name == name || m.platform == name {
			return m.platform
		}
	}
	return name
}

// PerUser says whether the manager can run a service as the user who
// installs it, in that user's session.
func (m Manager) PerUser() bool { return m.Name == "systemd" || m.Name == "launchd" }

// forcedSystem makes kardianos use a system whose detection failed: a
// container or a CI machine runs no systemd, but the unit can still be
// written (and the tests need it).
type forcedSystem struct{ service.System }

func (forcedSystem) Detect() bool { return true }

// availableManagers lists the friendly names kardianos offers on this OS.
func availableManagers() []string {
	var names []string
	for _, s := range service.AvailableSystems() {
		names = append(names, FriendlyManager(s.String()))
	}
	sort.Strings(names)
	return names
}

// ChooseManager selects the service manager: the one named (forced even
// when kardianos would not detect it), else the one kardianos detects.
func ChooseManager(name string) (Manager, error) {
	if name == "" {
		s := service.ChosenSystem()
		if s == nil {
			return Manager{}, &Error{Msg: "no service manager detected on this machine",
				Hint: "choose one with --manager (" + strings.Join(availableManagers(), ", ") + ")"}
		}
		return Manager{Name: FriendlyManager(s.String()), Platform: s.String()}, nil
	}
	want := PlatformOf(name)
	for _, s := range service.AvailableSystems() {
		if s.String() == want {
			service.ChooseSystem(forcedSystem{s})
			return Manager{Name: FriendlyManager(want), Platform: want, Forced: true}, nil
		}
	}
	return Manager{}, &Error{
		Msg:  fmt.Sprintf("service manager %q is not available on %s", name, runtime.GOOS),
		Hint: "available here: " + strings.Join(availableManagers(), ", ")}
}

// UnitPath is the file the manager's install writes, as kardianos computes
// it; "" for a manager that keeps its services elsewhere (Windows: the
// registry).
func UnitPath(m Manager, system bool) (string, error) {
	name := NameFor(m)
	switch m.Name {
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

// NameFor is the service's name under m: the launchd label, else ServiceName.
func NameFor(m Manager) string {
	if m.Name == "launchd" {
		return launchdLabel
	}
	return ServiceName
}

// WantsDir is the directory 'systemctl enable' links the unit into.
func WantsDir(m Manager, system bool, unit string) string {
	if m.Name != "systemd" || unit == "" {
		return ""
	}
	if system {
		return filepath.Join(filepath.Dir(unit), "multi-user.target.wants")
	}
	return filepath.Join(filepath.Dir(unit), "default.target.wants")
}

// ServiceArgs is what the service manager runs after the executable.
// Windows runs 'service run', which answers the service control manager
// and then runs watch; everything else runs watch itself.
func ServiceArgs(m Manager, cfgPath string) []string {
	if m.Name == "windows-service" {
		return []string{"service", "run", "--config", cfgPath}
	}
	return []string{"watch", "--config", cfgPath}
}

// launchdRestart is the agent's restart policy, the one of
// packaging/launchd/com.github.descriptorpin.plist: restarted after a
// failing exit (status 3, a runtime failure a restart can fix), at most
// every 10 s, never after a clean exit. launchd cannot tell status 2 (a
// config error) from 3; the throttle keeps a broken config from spinning.
const (
	launchdKeepAlive = "\t<key>KeepAlive</key>\n\t<dict>\n\t\t<key>SuccessfulExit</key>\n\t\t<false/>\n\t</dict>\n"
	launchdThrottle  = "\t<key>ThrottleInterval</key>\n\t<integer>10</integer>\n"
)

// launchdPlist is kardianos' launchd template (v1.3.0) with launchdKeepAlive
// for its KeepAlive bool and launchdThrottle added; renderLaunchd renders
// the same for the plan.
const launchdPlist = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Disabled</key>
	<false/>
	{{if EnvVars}}<key>EnvironmentVariables</key>
	<dict>
{{range EnvVars}}{{.}}
{{end}}	</dict>
	{{end}}<key>KeepAlive</key>
	<dict>
		<key>SuccessfulExit</key>
		<false/>
	</dict>
	<key>Label</key>
	<string>{{Name | html}}</string>
	<key>ProgramArguments</key>
	<array>
		<string>{{Path | html}}</string>
{{range Arguments}}		<string>{{. | html}}</string>
{{end}}	</array>
	{{if ChRoot}}<key>RootDirectory</key>
	<string>{{ChRoot | html}}</string>
	{{end}}<key>RunAtLoad</key>
	<{{RunAtLoad}}/>
	<key>SessionCreate</key>
	<{{SessionCreate}}/>
	{{if StandardErrorPath}}<key>StandardErrorPath</key>
	<string>{{StandardErrorPath | html}}</string>
	{{end}}{{if StandardOutPath}}<key>StandardOutPath</key>
	<string>{{StandardOutPath | html}}</string>
	{{end}}<key>ThrottleInterval</key>
	<integer>10</integer>
	{{if UserName}}<key>UserName</key>
	<string>{{UserName | html}}</string>
	{{end}}{{if WorkingDirectory}}<key>WorkingDirectory</key>
	<string>{{WorkingDirectory | html}}</string>
	{{end}}</dict>
</plist>
`

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
` + systemdHardening + `{{range EnvVars}}{{.}}
{{end}}
[Install]
`

// systemdHardening is the sandboxing of every unit: the one the package
// ships (packaging/systemd/descriptorpin.service, kept identical by
// TestPackagedUnitVerifies) and the ones 'service install' writes.
const systemdHardening = `# Sandboxing a per-user manager can apply: each line works through prctl(2)
# or a seccomp filter and needs no privilege. Options that need a mount,
# user or network namespace (ProtectSystem=, PrivateTmp=, ...) would imply
# PrivateUsers= in a user unit, which fails where unprivileged user
# namespaces are off. MemoryDenyWriteExecute= is left out on purpose: the
# scheduled capture starts MCP servers, most of them Node.js, whose JIT
# needs writable-then-executable memory.
NoNewPrivileges=yes
LockPersonality=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
RestrictNamespaces=yes
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallFilter=~@privileged
SystemCallErrorNumber=EPERM
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
UMask=0077
KeyringMode=private
`

const (
	systemdUserUnit   = systemdUnitHead + "WantedBy=default.target\n"
	systemdSystemUnit = systemdUnitHead + "WantedBy=multi-user.target\n"
)

// UnitMarker is in every unit install writes: uninstall removes a unit
// only when it carries the marker or the install record names it.
const UnitMarker = "# Written by 'descriptorpin service install'."

// SystemdEscape makes s literal inside a quoted ExecStart argument:
// systemd expands % specifiers and $VARIABLES there and reads C escapes,
// and kardianos' cmd quoting only escapes the double quote.
func SystemdEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `%%`, `$`, `$$`).Replace(s)
}

// SystemdEscapeExec is SystemdEscape for the executable, the first word of
// ExecStart, where systemd substitutes no variables (so $$ would stay $$).
func SystemdEscapeExec(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `%%`).Replace(s)
}

// serviceConfig is the kardianos configuration for this manager. user is
// the account a system-wide systemd unit runs as; env holds the installing
// user's profile variables a Windows service is given.
func serviceConfig(m Manager, system bool, exe, cfgPath, stateDir, user string, env map[string]string) *service.Config {
	args := ServiceArgs(m, cfgPath)
	c := &service.Config{
		Name:        NameFor(m),
		DisplayName: serviceDisplayName,
		Description: serviceDescription,
		Executable:  exe,
		Arguments:   args,
		Option:      service.KeyValue{"UserService": !system},
	}
	switch m.Name {
	case "systemd":
		c.Executable = SystemdEscapeExec(exe)
		c.Arguments = nil
		for _, a := range args {
			c.Arguments = append(c.Arguments, SystemdEscape(a))
		}
		if system {
			c.Option["SystemdScript"] = systemdSystemUnit
			c.UserName = user
		} else {
			c.Option["SystemdScript"] = systemdUserUnit
		}
	case "launchd":
		c.Option["RunAtLoad"] = true
		// kardianos' own plist can only say KeepAlive true (restart even
		// after a clean exit); ours restarts after a failing one.
		c.Option["LaunchdConfig"] = launchdPlist
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
		for _, k := range windowsProfileVars {
			if v := env[k]; v != "" {
				c.EnvVars[k] = v
			}
		}
	}
	return c
}

// windowsProfileVars are the installing user's variables a Windows service
// is given.
var windowsProfileVars = []string{"USERPROFILE", "APPDATA", "LOCALAPPDATA"}

// stderrLine matches the example config's log.stderr line.
var stderrLine = regexp.MustCompile(`(?m)^(\s*)stderr:\s*true\b.*$`)

// ExampleConfigFor is the config install writes when there is none: the
// commented example, with stderr off where the service's stderr is a file
// nobody rotates (launchd) or goes nowhere (a Windows service). Under
// systemd stderr is the journal, so it stays on.
func ExampleConfigFor(m Manager) string {
	if m.Name == "launchd" || m.Name == "windows-service" {
		return stderrLine.ReplaceAllString(config.Example,
			"${1}stderr: false      # off: under "+m.Name+" stderr is not rotated; the file above is the record")
	}
	return config.Example
}

// ControlHint is the manager's own command for an action, shown with a
// failure (kardianos does not pass on the tool's error output).
func ControlHint(m Manager, system bool, action string) string {
	name := NameFor(m)
	switch m.Name {
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
