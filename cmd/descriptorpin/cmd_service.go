package main

import (
	"errors"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/installer"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
)

// serviceName is the service's name for 'service run' (Windows).
const serviceName = installer.ServiceName

func init() {
	register(&command{
		name:    "service",
		summary: "install, remove and control the background service",
		usage: `Usage: descriptorpin service <action> [flags]

Actions:
  install     write the service's unit (and a default config when there is
              none), enable it so that it starts at login, and start it
  uninstall   stop it and remove what install created, and nothing else:
              the pin, the state and the events stay
  start, stop, restart
  status      installed or not, running or stopped, and the last event

The service runs 'descriptorpin watch --config FILE'. By default it is a
per-user service, because MCP client configs live in the home directory and
desktop notifications need the user's session:

  Linux    a systemd user unit, ~/.config/systemd/user/descriptorpin.service
           (WantedBy=default.target, Restart=on-failure, systemctl --user)
  macOS    a launchd LaunchAgent, ~/Library/LaunchAgents/com.github.descriptorpin.plist
           (RunAtLoad and KeepAlive; its output goes to the state directory)
  Windows  a Windows service (run as administrator). It runs as LocalSystem
           with the installing user's profile directories, so it watches
           that user's files, but it cannot show toast notifications:
           use the event log or a webhook

Flags:
  --config FILE     the config the service runs with (default: the per-OS
                    default path; install writes the commented example
                    there when the file does not exist)
  --manager NAME    the service manager: systemd, launchd, windows-service,
                    openrc, upstart, sysv, ... (default: detected as
                    kardianos/service does; name one to write the unit where
                    none runs, as in a container or an image build)
  --system          a system-wide service (root or administrator), running
                    as the installing account; for hosts whose MCP clients
                    run as a service account
  --no-start        install: enable, but do not start now
  --dry-run         install: print what would be written where (the unit's
                    contents, the paths, the commands) and change nothing
  --format FORMAT   status: text (default) or json

Install records what it created in service-install.json next to the default
config file, so that uninstall removes exactly that; a config that install
wrote is removed only while it is unchanged.

Example:
  descriptorpin service install --dry-run
  descriptorpin service install
  descriptorpin service status
  journalctl --user -u descriptorpin -f
  descriptorpin service uninstall
`,
		run: runService,
	})
}

// serviceOpts are the flags of every service action.
type serviceOpts struct {
	config, manager, format string
	system, noStart, dryRun bool
}

var serviceActions = []string{"install", "uninstall", "start", "stop", "restart", "status", "run"}

func runService(e *env, args []string) error {
	c := lookup("service")
	var o serviceOpts
	fset := newFlags(e, c)
	fset.StringVar(&o.config, "config", "", "")
	fset.StringVar(&o.manager, "manager", "", "")
	fset.StringVar(&o.format, "format", "text", "")
	fset.BoolVar(&o.system, "system", false, "")
	fset.BoolVar(&o.noStart, "no-start", false, "")
	fset.BoolVar(&o.dryRun, "dry-run", false, "")
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if _, err := parseFlags(e, c, fset, args); err != nil {
			return err
		}
		return usagef(c.name, "service needs an action: install, uninstall, start, stop, restart or status")
	}
	action := args[0]
	known := false
	for _, a := range serviceActions {
		known = known || a == action
	}
	if !known {
		return usagef(c.name, "unknown service action %q (want install, uninstall, start, stop, restart or status)", sanitize.Text(action))
	}
	pos, err := parseFlags(e, c, fset, args[1:])
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef(c.name, "service %s takes no arguments", action)
	}
	if o.noStart && action != "install" {
		return usagef(c.name, "--no-start is a flag of 'service install'")
	}
	if o.dryRun && action != "install" {
		return usagef(c.name, "--dry-run is a flag of 'service install'")
	}
	if o.format != "text" && o.format != "json" {
		return usagef(c.name, "--format must be text or json, got %q", sanitize.Text(o.format))
	}
	if o.format != "text" && action != "status" {
		return usagef(c.name, "--format is a flag of 'service status'")
	}
	if action == "run" {
		return serviceRun(e, o)
	}
	return installerErr(runInstaller(e, action, o))
}

func runInstaller(e *env, action string, o serviceOpts) error {
	r, err := installer.New(installer.Options{
		Manager: o.manager, System: o.system, Config: o.config, NoStart: o.noStart, DryRun: o.dryRun, Format: o.format,
		Stdout: e.stdout, Stderr: e.stderr, Version: version, User: currentUser(), WriteFile: fileio.WriteAtomic,
	})
	if err != nil {
		return err
	}
	switch action {
	case "install":
		return r.Install()
	case "uninstall":
		return r.Uninstall()
	case "status":
		return r.Status()
	default:
		return r.Control(action)
	}
}

// installerErr gives the installer's user errors their hint line.
func installerErr(err error) error {
	var ie *installer.Error
	if errors.As(err, &ie) {
		return &usageError{msg: err.Error(), hint: ie.Hint}
	}
	return err
}
