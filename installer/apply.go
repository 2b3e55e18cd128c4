package installer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Install builds the plan for this host and applies it, or with DryRun
// renders it and changes nothing.
func (r *Runner) Install() error {
	if err := checkScope(r.m, r.system, runtime.GOOS, os.Geteuid()); err != nil {
		return err
	}
	in, err := r.inputs()
	if err != nil {
		return err
	}
	// The config: the one there, or the commented example install writes.
	if _, err := os.Stat(in.ConfigPath); errors.Is(err, fs.ErrNotExist) {
		in.Config, err = config.Parse(strings.NewReader(ExampleConfigFor(r.m)))
		if err == nil {
			err = in.Config.Validate()
		}
		if err != nil {
			return wouldNotStart(err)
		}
	} else if err != nil {
		return fmt.Errorf("checking the config %q: %w", sanitize.Text(in.ConfigPath), err)
	} else {
		in.ConfigExists = true
		if in.Config, err = config.Load(in.ConfigPath); err == nil {
			err = in.Config.ValidateWatch()
		}
		if err != nil {
			return wouldNotStart(err)
		}
	}
	if _, err := os.Stat(in.Config.Pin); err == nil {
		in.PinExists = true
	}
	p, err := BuildPlan(in)
	if err != nil {
		return err
	}
	if r.opt.DryRun {
		Render(r.opt.Stdout, p)
		return nil
	}
	return r.Apply(p)
}

func wouldNotStart(err error) error {
	return &Error{Msg: fmt.Sprintf("the service would not start with this config: %s", err.Error()),
		Hint: "fix the config (descriptorpin watch --config FILE shows the same error), then install again"}
}

// Apply carries out a plan: the config (when there is none), the unit
// through kardianos/service, the install record, and the start. Until the
// record is written, a failure takes back what Apply created; after it,
// uninstall can remove it.
func (r *Runner) Apply(p *Plan) error {
	m, cfgPath, cfg := p.Manager, p.Config, p.Cfg

	// What does not exist yet, so that what install creates can be named.
	var cands []string
	cands = append(cands, missingDirs(filepath.Dir(cfgPath))...)
	cands = append(cands, missingDirs(filepath.Dir(r.recordPath))...)
	if r.unit != "" {
		cands = append(cands, missingDirs(filepath.Dir(r.unit))...)
		if wd := WantsDir(m, r.system, r.unit); wd != "" {
			cands = append(cands, missingDirs(wd)...)
		}
	}

	configCreated, recorded := false, false
	defer func() {
		if !recorded && configCreated {
			os.Remove(cfgPath)
			removeEmptyDirs(nowExisting(cands, nil))
		}
	}()
	if p.CreateConfig {
		if err := os.MkdirAll(filepath.Dir(cfgPath), 0o700); err != nil {
			return fmt.Errorf("creating the config directory: %w", err)
		}
		f, err := os.OpenFile(cfgPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return fmt.Errorf("writing the default config: %w", err)
		}
		_, werr := io.WriteString(f, p.ConfigContent)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(cfgPath)
			return fmt.Errorf("writing the default config %q: %w", sanitize.Text(cfgPath), werr)
		}
		configCreated = true
	}
	if p.StateDir != "" {
		// launchd does not create the directory of StandardErrorPath.
		if err := os.MkdirAll(p.StateDir, 0o700); err != nil {
			return fmt.Errorf("creating the state directory: %w", err)
		}
	}

	s, err := r.kservice(p.service)
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
				return &Error{Msg: fmt.Sprintf("%s exists and was not written by 'descriptorpin service install'", sanitize.Text(r.unit)),
					Hint: "it is left as it is; move it away to let install write its own"}
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
	if !enabled && m.Name == "systemd" {
		// Did 'enable' get as far as the link?
		_, err := os.Lstat(p.WantsLink)
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
	rec := &Record{
		Format: recordFormat, Manager: m.Name, Platform: m.Platform, System: r.system,
		Name: p.Name, Unit: r.unit, Executable: p.Executable, Arguments: p.Arguments, Config: cfgPath,
		Version: r.opt.Version, InstalledAt: engine.Stamp(time.Now()),
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
	if err := r.writeRecord(r.recordPath, rec); err != nil {
		return err
	}
	recorded = true

	var startErr error
	started := ""
	if !enabled || installErr != nil {
		// Not enabled, or no manager to start it: nothing to start now.
	} else if p.Start {
		if existed && changed {
			startErr, started = s.Restart(), "restarted"
		} else {
			startErr, started = s.Start(), "started"
		}
		// 'systemctl enable' may have created the .wants directory only now.
		if rec.Dirs = nowExisting(cands, rec.Dirs); startErr == nil {
			_ = r.writeRecord(r.recordPath, rec)
		}
	}

	res := installResult{configCreated: configCreated, already: already, existed: existed, changed: changed,
		enabled: enabled, started: started, startErr: startErr, installErr: installErr}
	r.report(p, cfg, res)
	switch {
	case installErr != nil && !enabled:
		return r.managerErr("enable", installErr)
	case installErr != nil:
		fmt.Fprintf(r.opt.Stderr, "descriptorpin: warning: the unit is written and enabled, but %s could not be told (%s): "+
			"no service manager runs for this session, so it starts at the next login; %s\n",
			r.m.Name, sanitize.Text(installErr.Error()), r.reloadHint())
		if r.m.Name == "systemd" && !r.system {
			fmt.Fprintln(r.opt.Stderr, "hint: over SSH, 'loginctl enable-linger' gives you a user manager that runs without a graphical login")
		}
	}
	if startErr != nil {
		return r.managerErr("start", startErr)
	}
	return nil
}

// installResult is what Apply did, for the report.
type installResult struct {
	configCreated, already, existed, changed, enabled bool
	started                                           string // "started", "restarted" or ""
	startErr, installErr                              error
}

// report tells the user what install did and where to look.
func (r *Runner) report(p *Plan, cfg config.Config, res installResult) {
	w, m := r.opt.Stdout, p.Manager
	fmt.Fprintf(w, "Installed the DescriptorPin service (%s).\n", r.kind())
	if res.configCreated {
		fmt.Fprintf(w, "  created   %s (the commented default config; after editing it, run 'descriptorpin service restart')\n", sanitize.Text(p.Config))
	} else {
		fmt.Fprintf(w, "  config    %s (exists, left as it is)\n", sanitize.Text(p.Config))
	}
	switch {
	case r.unit == "" && res.already:
		fmt.Fprintf(w, "  service   %s was already installed\n", p.Name)
	case r.unit == "":
		fmt.Fprintf(w, "  created   %s service %q\n", m.Name, p.Name)
	case !res.existed:
		fmt.Fprintf(w, "  created   %s\n", sanitize.Text(r.unit))
	case res.changed:
		fmt.Fprintf(w, "  updated   %s\n", sanitize.Text(r.unit))
	default:
		fmt.Fprintf(w, "  unchanged %s\n", sanitize.Text(r.unit))
	}
	switch {
	case !res.enabled:
		fmt.Fprintf(w, "  NOT enabled: %s failed\n", ControlHint(m, r.system, "enable"))
	default:
		if l := enabledLine(m, r.system); l != "" {
			fmt.Fprintln(w, "  enabled   "+l)
		}
	}
	switch {
	case res.started != "" && res.startErr == nil:
		fmt.Fprintf(w, "  %-9s now\n", res.started)
	case !p.Start:
		fmt.Fprintln(w, "  not started (--no-start): 'descriptorpin service start' starts it")
	case res.installErr != nil && res.enabled:
		fmt.Fprintln(w, "  not started: no service manager runs for this session (see the warning)")
	}
	_, err := os.Stat(cfg.Pin)
	writeTail(w, p, cfg, err == nil)
}

// enabledLine says when the enabled service starts.
func enabledLine(m Manager, system bool) string {
	switch {
	case m.Name == "systemd" && system:
		return "starts at boot (WantedBy=multi-user.target)"
	case m.Name == "systemd":
		return "starts at every login (WantedBy=default.target)"
	case m.Name == "launchd":
		return "starts at login, restarted after a failing exit (RunAtLoad, KeepAlive SuccessfulExit false)"
	case m.Name == "windows-service":
		return "starts at boot (automatic, delayed), restarts on failure"
	}
	return ""
}

// writeTail is the end of the install report, and of a rendered plan: what
// runs, the pin, the events and how to follow them. pinExists says whether
// the pin file is there.
func writeTail(w io.Writer, p *Plan, cfg config.Config, pinExists bool) {
	m := p.Manager
	fmt.Fprintf(w, "  runs      %s\n", sanitize.Text(strings.Join(append([]string{p.Executable}, p.Arguments...), " ")))
	if pinExists {
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
	for _, l := range p.Follow {
		fmt.Fprintf(w, "  %s\n", l)
	}
	if m.Name == "systemd" && !p.System {
		fmt.Fprintf(w, "To keep it running while you are logged out, and start it at boot: loginctl enable-linger %s\n", sanitize.Text(p.User))
	}
	if m.Name == "windows-service" {
		fmt.Fprintln(w, "A Windows service cannot show toast notifications: use the event log file or a webhook.")
	}
	fmt.Fprintln(w, "Remove it with 'descriptorpin service uninstall' (the pin, the state and the events stay).")
}
