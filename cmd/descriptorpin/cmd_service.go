package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/kardianos/service"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

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
  --format FORMAT   status: text (default) or json

Install records what it created in service-install.json next to the default
config file, so that uninstall removes exactly that; a config that install
wrote is removed only while it is unchanged.

Example:
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
	system, noStart         bool
}

// svcRun is one service action's context.
type svcRun struct {
	e          *env
	m          manager
	system     bool
	unit       string // the unit file the manager uses ("" on Windows)
	recordPath string
	record     *installRecord // nil when there is none
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
	if o.format != "text" && o.format != "json" {
		return usagef(c.name, "--format must be text or json, got %q", sanitize.Text(o.format))
	}
	if o.format != "text" && action != "status" {
		return usagef(c.name, "--format is a flag of 'service status'")
	}
	if action == "run" {
		return serviceRun(e, o)
	}
	r, err := newSvcRun(e, o)
	if err != nil {
		return err
	}
	switch action {
	case "install":
		return r.install(o)
	case "uninstall":
		return r.uninstall()
	case "status":
		return r.status(o)
	default:
		return r.control(action)
	}
}

func newSvcRun(e *env, o serviceOpts) (*svcRun, error) {
	r := &svcRun{e: e, system: o.system}
	var err error
	if r.recordPath, err = installRecordPath(o.system); err != nil {
		return nil, fmt.Errorf("finding where the install record goes: %w", err)
	}
	if r.record, err = readInstallRecord(r.recordPath); err != nil {
		return nil, err
	}
	name := o.manager
	if name == "" && r.record != nil {
		name = r.record.Manager
	}
	if name == "" && runtime.GOOS == "linux" && !o.system {
		// Where systemd does not run (a container), a user unit written
		// with --manager systemd is still found by uninstall and status.
		if p, err := unitPath(manager{name: "systemd"}, false); err == nil {
			if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte(unitMarker)) {
				if s := service.ChosenSystem(); s == nil || s.String() != "linux-systemd" {
					name = "systemd"
				}
			}
		}
	}
	if r.m, err = chooseManager(name); err != nil {
		return nil, err
	}
	if r.unit, err = unitPath(r.m, r.system); err != nil {
		return nil, fmt.Errorf("finding the %s unit path: %w", r.m.name, err)
	}
	return r, nil
}

// nop is the kardianos program for control actions: it never runs here.
type nop struct{}

func (nop) Start(service.Service) error { return nil }
func (nop) Stop(service.Service) error  { return nil }

func (r *svcRun) kservice(exe, cfgPath, stateDir string) (service.Service, error) {
	s, err := service.New(nop{}, serviceConfig(r.m, r.system, exe, cfgPath, stateDir))
	if err != nil {
		return nil, fmt.Errorf("setting up the %s service: %w", r.m.name, err)
	}
	return s, nil
}

// controlService is a kardianos service good enough for start, stop,
// restart, status and uninstall (they need the name, not the command line).
func (r *svcRun) controlService() (service.Service, error) {
	return r.kservice("", "", "")
}

func (r *svcRun) scopeWord() string {
	if r.system {
		return "system"
	}
	return "user"
}

// kind describes the unit for a person: "systemd user unit".
func (r *svcRun) kind() string {
	switch r.m.name {
	case "systemd":
		return "systemd " + r.scopeWord() + " unit"
	case "launchd":
		if r.system {
			return "launchd LaunchDaemon"
		}
		return "launchd LaunchAgent"
	case "windows-service":
		return "Windows service"
	}
	return r.m.name + " service"
}

// managerErr wraps a failure of the service manager with the command to
// run by hand: kardianos does not pass the tool's own message on.
func (r *svcRun) managerErr(action string, err error) error {
	ue := &usageError{msg: fmt.Sprintf("%s %s failed: %s", r.m.name, action, sanitize.Text(err.Error()))}
	if h := controlHint(r.m, r.system, action); h != "" {
		ue.hint = "run '" + h + "' to see why"
	}
	if r.m.name == "systemd" && !r.system {
		ue.hint += "; a systemd user manager runs only in a login session (or with 'loginctl enable-linger'), not in most containers"
	}
	return ue
}

// installed reports whether the service is installed, by its unit file or,
// where there is none, by asking the manager.
func (r *svcRun) installed() bool {
	if r.unit != "" {
		_, err := os.Lstat(r.unit)
		return err == nil
	}
	s, err := r.controlService()
	if err != nil {
		return false
	}
	_, err = s.Status()
	return !errors.Is(err, service.ErrNotInstalled)
}

// ours says whether install wrote the unit: the record names it or it
// carries the marker.
func (r *svcRun) ours(data []byte) bool {
	if r.record != nil && r.record.Unit == r.unit {
		return true
	}
	return bytes.Contains(data, []byte(unitMarker))
}

// configPath is the config the service runs with: the flag, the one the
// record names, or the default path.
func (r *svcRun) configPath(flag string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	if r.record != nil && r.record.Config != "" {
		return r.record.Config, nil
	}
	return config.DefaultPath()
}

// executablePath is the binary the service runs. The name found on PATH is
// preferred when it is the same file: a package's /usr/bin or Homebrew's
// bin link survives an upgrade, the versioned path behind it does not.
func executablePath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding this program's path: %w", err)
	}
	if p, err := exec.LookPath(filepath.Base(exe)); err == nil && filepath.IsAbs(p) {
		a, errA := os.Stat(p)
		b, errB := os.Stat(exe)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			return p, nil
		}
	}
	return exe, nil
}

func (r *svcRun) install(o serviceOpts) error {
	w := r.e.stdout
	m := r.m
	if !r.system && !m.perUser() && m.name != "windows-service" {
		hint := "use --system for a system-wide service, or start 'descriptorpin watch' from your session's autostart"
		if !m.forced && runtime.GOOS == "linux" {
			hint = "systemd is not running here (no /run/systemd/system); on a desktop with systemd this works as is. " +
				"To write the user unit anyway (an image build, a container), add --manager systemd; or use --system"
		}
		return &usageError{cmd: "service", msg: fmt.Sprintf("%s has no per-user services", m.name), hint: hint}
	}
	if r.system && runtime.GOOS != "windows" && os.Geteuid() != 0 {
		return &usageError{msg: "--system installs a system-wide service and needs root", hint: "sudo descriptorpin service install --system"}
	}
	cfgPath, err := r.configPath(o.config)
	if err != nil {
		return fmt.Errorf("finding the config path: %w", err)
	}
	exe, err := executablePath()
	if err != nil {
		return err
	}

	// What does not exist yet, so that what install creates can be named.
	var cands []string
	cands = append(cands, missingDirs(filepath.Dir(cfgPath))...)
	cands = append(cands, missingDirs(filepath.Dir(r.recordPath))...)
	if r.unit != "" {
		cands = append(cands, missingDirs(filepath.Dir(r.unit))...)
		if wd := wantsDir(m, r.system, r.unit); wd != "" {
			cands = append(cands, missingDirs(wd)...)
		}
	}

	// The config: the one there, or the commented example. Until the
	// record is written, a failure takes back what install created.
	configCreated, recorded := false, false
	defer func() {
		if !recorded && configCreated {
			os.Remove(cfgPath)
			removeEmptyDirs(nowExisting(cands, nil))
		}
	}()
	if _, err := os.Stat(cfgPath); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(cfgPath), 0o700); err != nil {
			return fmt.Errorf("creating the config directory: %w", err)
		}
		f, err := os.OpenFile(cfgPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return fmt.Errorf("writing the default config: %w", err)
		}
		_, werr := io.WriteString(f, exampleConfigFor(m))
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(cfgPath)
			return fmt.Errorf("writing the default config %q: %w", sanitize.Text(cfgPath), werr)
		}
		configCreated = true
	} else if err != nil {
		return fmt.Errorf("checking the config %q: %w", sanitize.Text(cfgPath), err)
	}
	cfg, err := config.Load(cfgPath)
	if err != nil {
		return &usageError{msg: fmt.Sprintf("the service would not start with this config: %s", err.Error()),
			hint: "fix the config (descriptorpin watch --config FILE shows the same error), then install again"}
	}
	if m.name == "launchd" && cfg.StateDir != "" {
		// launchd does not create the directory of StandardErrorPath.
		if err := os.MkdirAll(cfg.StateDir, 0o700); err != nil {
			return fmt.Errorf("creating the state directory: %w", err)
		}
	}

	args := serviceArgs(m, cfgPath)
	s, err := r.kservice(exe, cfgPath, cfg.StateDir)
	if err != nil {
		return err
	}

	// The unit: write it, or rewrite one that install wrote before.
	var old []byte
	existed := false
	if r.unit != "" {
		if data, err := os.ReadFile(r.unit); err == nil {
			old, existed = data, true
			if !r.ours(data) {
				return &usageError{msg: fmt.Sprintf("%s exists and was not written by 'descriptorpin service install'", sanitize.Text(r.unit)),
					hint: "it is left as it is; move it away to let install write its own"}
			}
		}
	}
	already := false
	if existed {
		if err := os.Remove(r.unit); err != nil {
			return fmt.Errorf("replacing %q: %w", sanitize.Text(r.unit), err)
		}
	} else if r.unit == "" && r.installed() {
		already = true
	}
	// installErr is a failure after the unit was written: with systemd,
	// 'enable' works on files and succeeds where no user manager runs (a
	// container, an image build), and then 'daemon-reload' fails. The unit
	// stays, and is recorded so that uninstall can remove it.
	var installErr error
	if !already {
		if err := s.Install(); err != nil {
			if _, serr := os.Lstat(r.unit); r.unit == "" || serr != nil {
				if existed {
					_ = os.WriteFile(r.unit, old, 0o644)
				}
				return r.managerErr("install", err)
			}
			installErr = err
		}
	}
	enabled := installErr == nil
	if !enabled && m.name == "systemd" {
		// Did 'enable' get as far as the link?
		_, err := os.Lstat(filepath.Join(wantsDir(m, r.system, r.unit), filepath.Base(r.unit)))
		enabled = err == nil
	}
	changed := true
	if existed {
		if now, err := os.ReadFile(r.unit); err == nil && bytes.Equal(now, old) {
			changed = false
		}
	}

	// The record, before starting: a failed start leaves an installed
	// service that uninstall can still remove.
	if err := os.MkdirAll(filepath.Dir(r.recordPath), 0o700); err != nil {
		return fmt.Errorf("writing the install record: %w", err)
	}
	rec := &installRecord{
		Format: installRecordFormat, Manager: m.name, Platform: m.platform, System: r.system,
		Name: svcNameFor(m), Unit: r.unit, Executable: exe, Arguments: args, Config: cfgPath,
		Version: version, InstalledAt: time.Now().UTC().Format(time.RFC3339),
	}
	var prevDirs []string
	if prev := r.record; prev != nil {
		prevDirs = prev.Dirs
		if prev.ConfigCreated && prev.Config == cfgPath {
			rec.ConfigCreated, rec.ConfigSHA256 = true, prev.ConfigSHA256
		}
	}
	if configCreated {
		rec.ConfigCreated = true
		if rec.ConfigSHA256, err = fileSHA256(cfgPath); err != nil {
			return fmt.Errorf("hashing the config: %w", err)
		}
	}
	rec.Dirs = nowExisting(cands, prevDirs)
	if err := writeInstallRecord(r.recordPath, rec); err != nil {
		return err
	}
	recorded = true

	var startErr error
	started := ""
	if !enabled || installErr != nil {
		// Not enabled, or no manager to start it: nothing to start now.
	} else if !o.noStart {
		if existed && changed {
			startErr, started = s.Restart(), "restarted"
		} else {
			startErr, started = s.Start(), "started"
		}
		// 'systemctl enable' may have created the .wants directory only now.
		if rec.Dirs = nowExisting(cands, rec.Dirs); startErr == nil {
			_ = writeInstallRecord(r.recordPath, rec)
		}
	}

	// Tell the user what happened and where to look.
	fmt.Fprintf(w, "Installed the DescriptorPin service (%s).\n", r.kind())
	if configCreated {
		fmt.Fprintf(w, "  created   %s (the commented default config; after editing it, run 'descriptorpin service restart')\n", sanitize.Text(cfgPath))
	} else {
		fmt.Fprintf(w, "  config    %s (exists, left as it is)\n", sanitize.Text(cfgPath))
	}
	switch {
	case r.unit == "" && already:
		fmt.Fprintf(w, "  service   %s was already installed\n", svcNameFor(m))
	case r.unit == "":
		fmt.Fprintf(w, "  created   %s service %q\n", m.name, svcNameFor(m))
	case !existed:
		fmt.Fprintf(w, "  created   %s\n", sanitize.Text(r.unit))
	case changed:
		fmt.Fprintf(w, "  updated   %s\n", sanitize.Text(r.unit))
	default:
		fmt.Fprintf(w, "  unchanged %s\n", sanitize.Text(r.unit))
	}
	switch {
	case !enabled:
		fmt.Fprintf(w, "  NOT enabled: %s failed\n", controlHint(m, r.system, "enable"))
	case m.name == "systemd":
		if r.system {
			fmt.Fprintln(w, "  enabled   starts at boot (WantedBy=multi-user.target)")
		} else {
			fmt.Fprintln(w, "  enabled   starts at every login (WantedBy=default.target)")
		}
	case m.name == "launchd":
		fmt.Fprintln(w, "  enabled   starts at login and is kept alive (RunAtLoad, KeepAlive)")
	case m.name == "windows-service":
		fmt.Fprintln(w, "  enabled   starts at boot (automatic, delayed), restarts on failure")
	}
	switch {
	case started != "" && startErr == nil:
		fmt.Fprintf(w, "  %-9s now\n", started)
	case o.noStart:
		fmt.Fprintln(w, "  not started (--no-start): 'descriptorpin service start' starts it")
	case installErr != nil && enabled:
		fmt.Fprintln(w, "  not started: no service manager runs for this session (see the warning)")
	}
	fmt.Fprintf(w, "  runs      %s\n", sanitize.Text(strings.Join(append([]string{exe}, args...), " ")))
	if _, err := os.Stat(cfg.Pin); err == nil {
		fmt.Fprintf(w, "  pin       %s\n", sanitize.Text(cfg.Pin))
	} else if cfg.TrustOnFirstUse {
		fmt.Fprintf(w, "  pin       %s (not there yet: the first start pins what is installed now, trust on first use; review it)\n", sanitize.Text(cfg.Pin))
	} else {
		fmt.Fprintf(w, "  pin       %s (not there yet, and trust_on_first_use is off: every tool is reported until you pin)\n", sanitize.Text(cfg.Pin))
	}
	if cfg.Log.File != "" {
		fmt.Fprintf(w, "  events    %s (JSON lines, for your SIEM's collector)\n", sanitize.Text(cfg.Log.File))
	} else {
		fmt.Fprintln(w, "  events    the event log file is off (log.file: \"\")")
	}
	fmt.Fprintln(w, "Follow the events:")
	for _, l := range r.followLines(cfg) {
		fmt.Fprintf(w, "  %s\n", l)
	}
	if m.name == "systemd" && !r.system {
		fmt.Fprintf(w, "To keep it running while you are logged out, and start it at boot: loginctl enable-linger %s\n", sanitize.Text(currentUser()))
	}
	if m.name == "windows-service" {
		fmt.Fprintln(w, "A Windows service cannot show toast notifications: use the event log file or a webhook.")
	}
	fmt.Fprintln(w, "Remove it with 'descriptorpin service uninstall' (the pin, the state and the events stay).")
	switch {
	case installErr != nil && !enabled:
		return r.managerErr("enable", installErr)
	case installErr != nil:
		fmt.Fprintf(r.e.stderr, "descriptorpin: warning: the unit is written and enabled, but %s could not be told (%s): "+
			"no service manager runs for this session, so it starts at the next login; %s\n",
			r.m.name, sanitize.Text(installErr.Error()), r.reloadHint())
		if r.m.name == "systemd" && !r.system {
			fmt.Fprintln(r.e.stderr, "hint: over SSH, 'loginctl enable-linger' gives you a user manager that runs without a graphical login")
		}
	}
	if startErr != nil {
		return r.managerErr("start", startErr)
	}
	return nil
}

// reloadHint is how to tell the manager about a removed unit by hand.
func (r *svcRun) reloadHint() string {
	switch {
	case r.m.name == "systemd" && r.system:
		return "run 'systemctl daemon-reload'"
	case r.m.name == "systemd":
		return "run 'systemctl --user daemon-reload' in your session"
	case r.m.name == "launchd":
		return "run 'launchctl remove " + launchdLabel + "' if it is still loaded"
	}
	return "the manager may still list it until it reloads"
}

// followLines are the commands that show the service's events.
func (r *svcRun) followLines(cfg config.Config) []string {
	var out []string
	switch r.m.name {
	case "systemd":
		if r.system {
			out = append(out, "journalctl -u "+serviceName+" -f")
		} else {
			out = append(out, "journalctl --user -u "+serviceName+" -f")
		}
	case "launchd":
		if cfg.StateDir != "" {
			out = append(out, "tail -f "+shellQuote(filepath.Join(cfg.StateDir, launchdLabel+".err.log"))+"   (start-up errors)")
		}
	}
	if cfg.Log.File != "" {
		if runtime.GOOS == "windows" {
			out = append(out, "Get-Content -Wait "+shellQuote(cfg.Log.File))
		} else {
			out = append(out, "tail -f "+shellQuote(cfg.Log.File))
		}
	}
	return out
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/._-+:,@~\\", c))
	}) < 0 {
		return sanitize.Text(s)
	}
	return "'" + strings.ReplaceAll(sanitize.Text(s), "'", `'\''`) + "'"
}

func (r *svcRun) uninstall() error {
	w := r.e.stdout
	var removed, kept, warnings []string
	s, err := r.controlService()
	if err != nil {
		return err
	}
	data, uerr := os.ReadFile(r.unit)
	switch {
	case r.unit != "" && uerr == nil:
		if !r.ours(data) {
			return &usageError{msg: fmt.Sprintf("%s was not written by 'descriptorpin service install' (no install record names it, and it lacks the marker line)", sanitize.Text(r.unit)),
				hint: "it is left as it is; remove it by hand if it is yours to remove"}
		}
		_ = s.Stop() // not running is fine
		if err := s.Uninstall(); err != nil {
			// The manager could not be told (no user session, say): remove
			// what install wrote anyway, and say so.
			warnings = append(warnings, fmt.Sprintf("%s did not answer (%s); removed the files anyway (%s)",
				r.m.name, sanitize.Text(err.Error()), r.reloadHint()))
			if err := os.Remove(r.unit); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("removing %q: %w", sanitize.Text(r.unit), err)
			}
			if wd := wantsDir(r.m, r.system, r.unit); wd != "" {
				link := filepath.Join(wd, filepath.Base(r.unit))
				if dst, err := os.Readlink(link); err == nil && dst == r.unit {
					os.Remove(link)
				}
			}
		}
		removed = append(removed, r.unit+" ("+r.kind()+", stopped and disabled)")
	case r.unit == "" && r.installed():
		_ = s.Stop()
		if err := s.Uninstall(); err != nil {
			return r.managerErr("uninstall", err)
		}
		removed = append(removed, fmt.Sprintf("%s %q", r.kind(), svcNameFor(r.m)))
	}

	rec := r.record
	if rec != nil {
		if rec.ConfigCreated {
			sum, err := fileSHA256(rec.Config)
			switch {
			case errors.Is(err, fs.ErrNotExist):
			case err != nil:
				kept = append(kept, rec.Config+" (config: "+err.Error()+")")
			case sum == rec.ConfigSHA256:
				if err := os.Remove(rec.Config); err != nil {
					return fmt.Errorf("removing the config: %w", err)
				}
				removed = append(removed, rec.Config+" (the default config install wrote, unchanged)")
			default:
				kept = append(kept, rec.Config+" (config: changed since install, so it is yours now)")
			}
		} else if rec.Config != "" {
			kept = append(kept, rec.Config+" (config: it was there before install)")
		}
		if err := os.Remove(r.recordPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing the install record: %w", err)
		}
		removed = append(removed, r.recordPath+" (install record)")
		for _, d := range removeEmptyDirs(rec.Dirs) {
			removed = append(removed, d+"/ (empty directory install created)")
		}
	}
	if len(removed) == 0 {
		fmt.Fprintf(w, "The DescriptorPin service is not installed here (no install record at %s, no %s %s unit): nothing to remove.\n",
			sanitize.Text(r.recordPath), r.m.name, r.scopeWord())
		return nil
	}

	// What stays, by design.
	cfgPath := ""
	if rec != nil {
		cfgPath = rec.Config
	}
	if cfg, err := loadConfigQuiet(cfgPath); err == nil {
		for _, k := range [][2]string{{cfg.Pin, "pin"}, {cfg.StateDir, "state"}, {cfg.Log.File, "events"}} {
			if _, err := os.Stat(k[0]); k[0] != "" && err == nil {
				kept = append(kept, k[0]+" ("+k[1]+")")
			}
		}
	}
	fmt.Fprintln(w, "Uninstalled the DescriptorPin service.")
	for _, p := range removed {
		fmt.Fprintf(w, "  removed %s\n", sanitize.Text(p))
	}
	for _, p := range kept {
		fmt.Fprintf(w, "  kept    %s\n", sanitize.Text(p))
	}
	for _, l := range warnings {
		fmt.Fprintf(r.e.stderr, "descriptorpin: warning: %s\n", l)
	}
	return nil
}

// loadConfigQuiet loads the named config (or the default resolution) for
// display; a config written by install that uninstall removed falls back
// to the defaults, which are what it said.
func loadConfigQuiet(path string) (config.Config, error) {
	if path != "" {
		if _, err := os.Stat(path); err == nil {
			return config.Load(path)
		}
	}
	cfg := config.Default()
	return cfg, cfg.Validate()
}

func (r *svcRun) control(action string) error {
	if !r.installed() {
		return &usageError{msg: fmt.Sprintf("the DescriptorPin service is not installed here (%s, %s scope)", r.m.name, r.scopeWord()),
			hint: "install it with 'descriptorpin service install'"}
	}
	s, err := r.controlService()
	if err != nil {
		return err
	}
	switch action {
	case "start":
		err = s.Start()
	case "stop":
		err = s.Stop()
	case "restart":
		err = s.Restart()
	}
	if err != nil {
		return r.managerErr(action, err)
	}
	past := map[string]string{"start": "started", "stop": "stopped", "restart": "restarted"}[action]
	fmt.Fprintf(r.e.stdout, "%s the DescriptorPin service (%s)\n", strings.ToUpper(past[:1])+past[1:], r.kind())
	return nil
}

// serviceStatusView is the JSON form of 'service status'.
type serviceStatusView struct {
	Manager   string     `json:"manager"`
	Scope     string     `json:"scope"`
	Installed bool       `json:"installed"`
	State     string     `json:"state"` // running, stopped, not-installed, unknown
	Detail    string     `json:"detail,omitempty"`
	Unit      string     `json:"unit,omitempty"`
	Config    string     `json:"config,omitempty"`
	Events    string     `json:"events,omitempty"`
	LastEvent *lastEvent `json:"last_event"`
	Follow    []string   `json:"follow,omitempty"`
}

type lastEvent struct {
	Timestamp string `json:"timestamp"`
	Action    string `json:"action"`
	Message   string `json:"message,omitempty"`
}

func (r *svcRun) status(o serviceOpts) error {
	v := serviceStatusView{Manager: r.m.name, Scope: r.scopeWord(), Unit: r.unit, State: "not-installed"}
	v.Installed = r.installed()
	if v.Installed {
		s, err := r.controlService()
		if err != nil {
			return err
		}
		st, err := s.Status()
		switch {
		case err == nil && st == service.StatusRunning:
			v.State = "running"
		case err == nil && st == service.StatusStopped:
			v.State = "stopped"
		case errors.Is(err, service.ErrNotInstalled):
			v.State = "unknown"
			v.Detail = r.m.name + " does not know the service (is the manager running? " + controlHint(r.m, r.system, "status") + ")"
		case err != nil:
			v.State = "unknown"
			v.Detail = err.Error()
		default:
			v.State = "unknown"
		}
	}
	if cfgPath, err := r.configPath(o.config); err == nil {
		if _, err := os.Stat(cfgPath); err == nil {
			v.Config = cfgPath
		} else {
			cfgPath = ""
		}
		cfg, err := loadConfigQuiet(cfgPath)
		if err != nil {
			v.Detail = strings.TrimPrefix(v.Detail+"; config: "+err.Error(), "; ")
		} else {
			v.Events = cfg.Log.File
			if cfg.Log.File != "" {
				v.LastEvent, _ = readLastEvent(cfg.Log.File)
			}
			v.Follow = r.followLines(cfg)
		}
	}
	if o.format == "json" {
		out, _ := json.MarshalIndent(v, "", "  ")
		fmt.Fprintf(r.e.stdout, "%s\n", out)
		return nil
	}
	w := r.e.stdout
	if v.Installed {
		fmt.Fprintf(w, "service:    installed (%s", r.kind())
		if v.Unit != "" {
			fmt.Fprintf(w, " %s", sanitize.Text(v.Unit))
		}
		fmt.Fprintln(w, ")")
	} else {
		fmt.Fprintf(w, "service:    not installed (%s, %s scope)\n", r.m.name, r.scopeWord())
	}
	fmt.Fprintf(w, "state:      %s\n", v.State)
	if v.Detail != "" {
		fmt.Fprintf(w, "detail:     %s\n", sanitize.Text(v.Detail))
	}
	if v.Config != "" {
		fmt.Fprintf(w, "config:     %s\n", sanitize.Text(v.Config))
	} else {
		fmt.Fprintln(w, "config:     none (the built-in defaults)")
	}
	if v.Events != "" {
		fmt.Fprintf(w, "events:     %s\n", sanitize.Text(v.Events))
	}
	if v.LastEvent != nil {
		fmt.Fprintf(w, "last event: %s %s", v.LastEvent.Timestamp, sanitize.Text(v.LastEvent.Action))
		if v.LastEvent.Message != "" {
			fmt.Fprintf(w, ": %s", sanitize.Text(v.LastEvent.Message))
		}
		fmt.Fprintln(w)
	} else if v.Events != "" {
		fmt.Fprintln(w, "last event: none yet")
	}
	for i, l := range v.Follow {
		label := "follow:    "
		if i > 0 {
			label = "           "
		}
		fmt.Fprintf(w, "%s %s\n", label, l)
	}
	return nil
}

// readLastEvent returns the last event in a JSON-lines event log (nil when
// the file is missing or holds none). Only the tail of the file is read.
func readLastEvent(path string) (*lastEvent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	const tail = 256 << 10
	off := st.Size() - tail
	if off < 0 {
		off = 0
	}
	buf := make([]byte, st.Size()-off)
	n, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	lines := bytes.Split(buf[:n], []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		var ev struct {
			Timestamp string `json:"@timestamp"`
			Message   string `json:"message"`
			Event     struct {
				Action string `json:"action"`
			} `json:"event"`
		}
		if json.Unmarshal(lines[i], &ev) == nil && ev.Timestamp != "" {
			return &lastEvent{Timestamp: ev.Timestamp, Action: ev.Event.Action, Message: ev.Message}, nil
		}
	}
	return nil, nil
}
