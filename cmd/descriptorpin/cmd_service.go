package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/installer"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
	"github.com/descriptorpin/descriptorpin/service"
)

// serviceName is the service's name for 'service run' (Windows).
const serviceName = installer.ServiceName

func init() {
	register(&command{
		name:    "service",
		summary: "install, remove and control the background service",
		run:     runService,
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
		Stdout: e.stdout, Stderr: e.stderr, Version: version, User: service.CurrentUser(), WriteFile: fileio.WriteAtomic,
	})
	if err != nil {
		return err
	}
	switch action {
	case "install":
		if err := r.Install(); err != nil || o.dryRun {
			return err
		}
		fmt.Fprintf(e.stdout, "tool descriptors: %s\n", service.ToolPinningOf(o.config))
		return nil
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
