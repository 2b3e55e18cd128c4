package installer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/kardianos/service"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Error is a mistake the user can fix (a usage, config or manager
// problem): the caller shows Msg, then Hint on a line of its own.
type Error struct {
	Msg  string
	Hint string
}

func (e *Error) Error() string { return e.Msg }

// Options are the flags of a service action and what the caller knows of
// the process.
type Options struct {
	Manager string // --manager: "" detects
	System  bool   // --system
	Config  string // --config: "" is the record's, else the default path
	NoStart bool   // install: enable, do not start
	DryRun  bool   // install: print the plan, change nothing
	Format  string // status: text or json

	Stdout, Stderr io.Writer
	Version        string // recorded in the install record
	User           string // the installing account
	// WriteFile is the atomic writer (temp file, fsync, rename).
	WriteFile func(path string, data []byte, perm os.FileMode) error
}

// Runner is one service action's context: the manager, the unit file it
// uses and the install record, if any.
type Runner struct {
	opt        Options
	m          Manager
	system     bool
	unit       string // the unit file the manager uses ("" on Windows)
	recordPath string
	record     *Record // nil when there is none
}

// New finds the manager (named, recorded or detected), the unit path and
// the install record. It reads, and changes nothing.
func New(o Options) (*Runner, error) {
	r := &Runner{opt: o, system: o.System}
	var err error
	if r.recordPath, err = RecordPath(o.System); err != nil {
		return nil, fmt.Errorf("finding where the install record goes: %w", err)
	}
	if r.record, err = readRecord(r.recordPath); err != nil {
		return nil, err
	}
	name := o.Manager
	if name == "" && r.record != nil {
		name = r.record.Manager
	}
	if name == "" && runtime.GOOS == "linux" && !o.System {
		// Where systemd does not run (a container), a user unit written
		// with --manager systemd is still found by uninstall and status.
		if p, err := UnitPath(Manager{Name: "systemd"}, false); err == nil {
			if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte(UnitMarker)) {
				if s := service.ChosenSystem(); s == nil || s.String() != "linux-systemd" {
					name = "systemd"
				}
			}
		}
	}
	if r.m, err = ChooseManager(name); err != nil {
		return nil, err
	}
	if r.unit, err = UnitPath(r.m, r.system); err != nil {
		return nil, fmt.Errorf("finding the %s unit path: %w", r.m.Name, err)
	}
	return r, nil
}

// nop is the kardianos program for control actions: it never runs here.
type nop struct{}

func (nop) Start(service.Service) error { return nil }
func (nop) Stop(service.Service) error  { return nil }

func (r *Runner) kservice(c *service.Config) (service.Service, error) {
	s, err := service.New(nop{}, c)
	if err != nil {
		return nil, fmt.Errorf("setting up the %s service: %w", r.m.Name, err)
	}
	return s, nil
}

// controlService is a kardianos service good enough for start, stop,
// restart, status and uninstall (they need the name, not the command line).
func (r *Runner) controlService() (service.Service, error) {
	return r.kservice(serviceConfig(r.m, r.system, "", "", "", r.opt.User, nil))
}

func scopeWord(system bool) string {
	if system {
		return "system"
	}
	return "user"
}

func (r *Runner) scopeWord() string { return scopeWord(r.system) }

// kindOf describes the unit for a person: "systemd user unit".
func kindOf(m Manager, system bool) string {
	switch m.Name {
	case "systemd":
		return "systemd " + scopeWord(system) + " unit"
	case "launchd":
		if system {
			return "launchd LaunchDaemon"
		}
		return "launchd LaunchAgent"
	case "windows-service":
		return "Windows service"
	}
	return m.Name + " service"
}

func (r *Runner) kind() string { return kindOf(r.m, r.system) }

// managerErr wraps a failure of the service manager with the command to
// run by hand: kardianos does not pass the tool's own message on.
func (r *Runner) managerErr(action string, err error) error {
	ue := &Error{Msg: fmt.Sprintf("%s %s failed: %s", r.m.Name, action, sanitize.Text(err.Error()))}
	if h := ControlHint(r.m, r.system, action); h != "" {
		ue.Hint = "run '" + h + "' to see why"
	}
	if r.m.Name == "systemd" && !r.system {
		ue.Hint += "; a systemd user manager runs only in a login session (or with 'loginctl enable-linger'), not in most containers"
	}
	return ue
}

// installed reports whether the service is installed, by its unit file or,
// where there is none, by asking the manager.
func (r *Runner) installed() bool {
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
func (r *Runner) ours(data []byte) bool {
	if r.record != nil && r.record.Unit == r.unit {
		return true
	}
	return bytes.Contains(data, []byte(UnitMarker))
}

// configPath is the config the service runs with: the flag, the one the
// record names, or the default path.
func (r *Runner) configPath(flag string) (string, error) {
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

// Control starts, stops or restarts the installed service.
func (r *Runner) Control(action string) error {
	if !r.installed() {
		return &Error{Msg: fmt.Sprintf("the DescriptorPin service is not installed here (%s, %s scope)", r.m.Name, r.scopeWord()),
			Hint: "install it with 'descriptorpin service install'"}
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
	fmt.Fprintf(r.opt.Stdout, "%s the DescriptorPin service (%s)\n", strings.ToUpper(past[:1])+past[1:], r.kind())
	return nil
}

// reloadHint is how to tell the manager about a removed unit by hand.
func (r *Runner) reloadHint() string {
	switch {
	case r.m.Name == "systemd" && r.system:
		return "run 'systemctl daemon-reload'"
	case r.m.Name == "systemd":
		return "run 'systemctl --user daemon-reload' in your session"
	case r.m.Name == "launchd":
		return "run 'launchctl remove " + launchdLabel + "' if it is still loaded"
	}
	return "the manager may still list it until it reloads"
}

// followLines are the commands that show the service's events.
func followLines(m Manager, system bool, goos string, cfg config.Config) []string {
	var out []string
	switch m.Name {
	case "systemd":
		if system {
			out = append(out, "journalctl -u "+ServiceName+" -f")
		} else {
			out = append(out, "journalctl --user -u "+ServiceName+" -f")
		}
	case "launchd":
		if cfg.StateDir != "" {
			out = append(out, "tail -f "+shellQuote(filepath.Join(cfg.StateDir, launchdLabel+".err.log"))+"   (start-up errors)")
		}
	}
	if cfg.Log.File != "" {
		if goos == "windows" {
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
