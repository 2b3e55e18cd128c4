package service

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/monitor"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
	"github.com/descriptorpin/descriptorpin/notify"
)

// LastGoodPin is the copy of the last pin the service loaded, kept in
// state_dir: with the pin deleted or broken after the first start, the
// service goes on scanning against it instead of trusting what is there.
const LastGoodPin = "pin.last-good.json"

// --- read and parse failures of targets (INPUT alerts) ---

// readAlert is the alert for a target that cannot be read; false for a
// file that does not exist (that is a scan failure, not an attack).
func readAlert(t target, err error) (monitor.Alert, bool) {
	var ie *engine.InputError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return monitor.Alert{}, false
	case errors.Is(err, fileio.ErrNotRegular):
		return monitor.Alert{Class: engine.ClassInput, Rule: engine.RuleNotRegular, Severity: engine.High, Subject: t.identity,
			Summary: "INPUT " + t.identity + ": not a regular file, refused (a FIFO or a device at a watched path can hang a reader)",
			Details: []string{err.Error()}}, true
	case errors.As(err, &ie):
		return parseAlert(t, err, false), true
	}
	return monitor.Alert{Class: engine.ClassInput, Rule: engine.RuleUnreadable, Severity: engine.Medium, Subject: t.identity,
		Summary: "INPUT " + t.identity + ": cannot be read", Details: []string{err.Error()}}, true
}

// parseAlert is the alert for a target that does not parse: high for a
// client config that parsed before (it changed and its client may read
// what this tool cannot), medium otherwise.
func parseAlert(t target, err error, wasConfig bool) monitor.Alert {
	sev := engine.Medium
	if wasConfig {
		sev = engine.High
	}
	return monitor.Alert{Class: engine.ClassInput, Rule: engine.RuleParseFailed, Severity: sev, Subject: t.identity,
		Summary: "INPUT " + t.identity + ": no longer parses; its last good result is kept, and what its client reads now is not scanned",
		Details: []string{err.Error()}}
}

// lenientAlert is the alert for a client config that only parses with
// its client's leniency: what the client reads was scanned, but a reader
// that differs (this tool's strict one, another client) sees otherwise.
func lenientAlert(t target, err error) monitor.Alert {
	return monitor.Alert{Class: engine.ClassInput, Rule: engine.RuleLenientParse, Severity: engine.Medium, Subject: t.identity,
		Summary: "INPUT " + t.identity + ": parses only as its client reads it (scanned that way); fix the file",
		Details: []string{err.Error()}}
}

// --- the pin after the first start (PIN alerts) ---

// firstStart reports whether this is a true first start: no state of an
// earlier run (readable or not) and no copy of a last good pin.
func (d *Daemon) firstStart() bool {
	if d.hadState || d.state.PinHash != "" {
		return false
	}
	if _, err := d.fs.Stat(filepath.Join(d.cfg.StateDir, LastGoodPin)); err == nil {
		return false
	}
	return true
}

// pinLost handles a pin that is missing or unusable after the first
// start: a high alert, and scanning goes on against the last good pin,
// so nothing resolves because the pin went away.
func (d *Daemon) pinLost(rule string, err error) {
	what := "is missing"
	if rule == engine.RulePinInvalid {
		what = "cannot be used"
	}
	a := monitor.Alert{Class: engine.ClassPin, Rule: rule, Severity: engine.High, Subject: monitor.Identity(d.cfg.Pin, d.home),
		Summary: "PIN " + monitor.Identity(d.cfg.Pin, d.home) + " " + what + "; scanning against the last good pin, nothing is re-trusted or resolved",
		Details: []string{err.Error()}}
	if d.pin == nil {
		if p := d.lastGoodPin(); p != nil {
			d.pin = p
		} else {
			d.frozen = true
			a.Summary = "PIN " + monitor.Identity(d.cfg.Pin, d.home) + " " + what + " and no last good copy is left; reporting static findings only, findings that need the pin stay open"
		}
	}
	d.pinProblem = &a
	d.pinAlerts()
}

// pinFound clears a pin alert: a good pin is back.
func (d *Daemon) pinFound(p *pin.Pin, data []byte) {
	d.pinProblem = nil
	d.frozen = false
	d.pinAlerts()
	d.pinBytes = data
	d.keepPin(data)
}

// pinAlerts makes the open PIN alerts those of pinProblem.
func (d *Daemon) pinAlerts() {
	fs := d.state.File(d.cfg.Pin, monitor.Identity(d.cfg.Pin, d.home), "pin")
	var as []monitor.Alert
	if d.pinProblem != nil {
		as = append(as, *d.pinProblem)
	}
	d.emit(monitor.SetAlerts(fs, engine.ClassPin, as, d.now())...)
}

// keepPin saves a copy of a good pin's bytes in the state directory.
func (d *Daemon) keepPin(data []byte) {
	path := filepath.Join(d.cfg.StateDir, LastGoodPin)
	if old, _, err := read(d.fs, "pin copy", path); err == nil && hashBytes(old) == hashBytes(data) {
		return
	}
	if err := d.fs.WriteFile(path, data, 0o600); err != nil {
		d.emit(d.failed(path, fmt.Errorf("keeping a copy of the pin: %w", err)))
	}
}

// lastGoodPin loads the copy of the last good pin, if it is the one the
// state recorded.
func (d *Daemon) lastGoodPin() *pin.Pin {
	path := filepath.Join(d.cfg.StateDir, LastGoodPin)
	data, _, err := read(d.fs, "pin copy", path)
	if err != nil || (d.state.PinHash != "" && hashBytes(data) != d.state.PinHash) {
		return nil
	}
	p, err := pin.Load(path, data)
	if err != nil {
		return nil
	}
	return p
}

// keepWithoutPin keeps open, while there is no pin at all, the findings
// only a pin can tell are gone.
func (d *Daemon) keepWithoutPin(of *engine.OpenFinding) bool {
	if !d.frozen {
		return false
	}
	switch of.Class {
	case engine.Mutation, engine.Added, engine.Removed, engine.Launch:
		return true
	}
	return false
}

// --- events that cannot be written ---

// Deliverer is a sink that says whether an event reached the event log.
// The service records a finding as announced only once its event is
// written, so a full disk delays an alert instead of losing it.
type Deliverer interface {
	Deliver(ev engine.Event) error
}

// deliver sends ev and reports whether it reached the event log.
func (d *Daemon) deliver(ev engine.Event) error {
	if dv, ok := d.sink.(Deliverer); ok {
		return dv.Deliver(ev)
	}
	d.sink.Send(ev)
	return nil
}

func isUnwritableAlert(ev engine.Event) bool {
	return ev.Finding != nil && ev.Finding.Class == engine.ClassService
}

// undelivered undoes what an event that was not written recorded, so the
// next scan announces it again, and says loudly that events are lost.
func (d *Daemon) undelivered(ev engine.Event, err error) {
	if isUnwritableAlert(ev) {
		return
	}
	if fs := d.state.Files[ev.File]; fs != nil {
		switch {
		case ev.Finding != nil && ev.Action == engine.ActionFindingOpened:
			delete(fs.Open, ev.Finding.ID)
		case ev.Finding != nil && ev.Action == engine.ActionFindingResolved:
			fs.Open[ev.Finding.ID] = ev.Finding
		case ev.Action == engine.ActionScanFailed:
			fs.Error = ""
		}
		delete(d.scanned, ev.File)
		d.retry[ev.File] = true
	}
	if d.logDown {
		return
	}
	d.logDown = true
	msg := sanitize.Text(err.Error())
	fmt.Fprintf(d.opt.Stderr, "descriptorpin: error: cannot write events (%s); alerts are kept and written when the event log works again\n", msg)
	d.emit(monitor.SetAlerts(d.eventsState(), engine.ClassService, []monitor.Alert{{
		Class: engine.ClassService, Rule: engine.RuleEventsUnwritable, Severity: engine.High, Subject: "event log",
		Summary: "SERVICE event log: events cannot be written; alerts are kept and written when it works again",
		Details: []string{msg},
	}}, d.now())...)
}

// delivered notes that events are written again.
func (d *Daemon) delivered() {
	if !d.logDown {
		return
	}
	d.logDown = false
	fmt.Fprintf(d.opt.Stderr, "descriptorpin: events are written again\n")
	d.emit(monitor.SetAlerts(d.eventsState(), engine.ClassService, nil, d.now())...)
}

func (d *Daemon) eventsState() *monitor.FileState {
	p := d.cfg.Log.File
	if p == "" {
		p = "eventlog"
	}
	return d.state.File(p, monitor.Identity(p, d.home), "eventlog")
}

// housekeep runs after every piece of work, when the watcher sees the
// state file go, and on the retry timer while events could not be
// written: it recreates a deleted state directory (saving the state into
// it) and re-scans the files whose events could not be written.
func (d *Daemon) housekeep() {
	if len(d.retry) > 0 {
		paths := d.retry
		d.retry = map[string]bool{}
		for p := range paths {
			switch {
			case p == d.cfg.Pin:
				d.pinAlerts()
			default:
				if t, ok := d.targets[p]; ok {
					d.emit(d.scanTarget(t)...)
				}
			}
		}
	}
	d.saveState()
}

// ensureStateDir recreates the state directory when it was deleted under
// the running service, with what it holds: the state, the copy of the
// pin, the webhooks' spool directories.
func (d *Daemon) ensureStateDir() {
	check := d.statePath // once written, the state file must be there
	if d.saved == nil {
		check = d.cfg.StateDir
	}
	if _, err := d.fs.Stat(check); err == nil {
		return
	}
	if err := d.fs.MkdirAll(d.cfg.StateDir, 0o700); err != nil {
		return
	}
	for _, wc := range d.cfg.Notify.Webhooks {
		_ = d.fs.MkdirAll(filepath.Join(d.cfg.StateDir, "spool", notify.SpoolName(wc.Name, wc.URL)), 0o700)
	}
	if d.pinBytes != nil && d.pinProblem == nil {
		d.keepPin(d.pinBytes)
	}
	if d.saved == nil {
		return // not written yet: nothing was lost
	}
	d.saved = nil // write it again
	ev := d.event(ActionStateRecreated, "warn", d.statePath, "the state file was deleted while the service ran; recreated it")
	d.emit(ev)
}

// ActionStateRecreated: the state directory or file was deleted under
// the running service and has been recreated.
const ActionStateRecreated = engine.ActionStateRecreated
