package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/engine/monitor"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/engine/scan"
	"github.com/descriptorpin/descriptorpin/internal/english"
	"github.com/descriptorpin/descriptorpin/notify"
	"github.com/descriptorpin/descriptorpin/watcher"
)

// target is one watched file.
type target struct {
	path     string
	kind     string // "inventory", "client-config" or "auto"
	identity string
	// discovered targets are client config locations that may not exist:
	// their absence is normal and silent.
	discovered bool
	// capture marks a scheduled capture's inventory (absent until the
	// first capture; its first tools are trusted on first use).
	capture bool
}

// Daemon is the service: it owns the pin, the state and the targets, and
// only its loop goroutine touches them.
type Daemon struct {
	cfg     config.Config
	opt     Options
	fs      FS
	rules   detect.RuleSet
	now     func() time.Time
	home    string
	sink    notify.Sink
	targets map[string]target
	cache   scan.Cache // per-tool hashes and POISON findings, across scans
	// reusers keep, per large inventory target, its last good parse, so a
	// change parses the servers it touched (inventory.Reuser).
	reusers map[string]*inventory.Reuser
	reused  int // versions read with the last parse reused (for tests)
	// owned keeps, per target, the part of the pin its last scan owned
	// (pin.Owned), while the pin and the claim stay the same.
	owned map[string]ownedView

	state     *monitor.State
	statePath string

	pin     *pin.Pin // last good pin; nil when there is none
	pinHash string   // SHA-256 of the last pin bytes read (good or bad)
	// pinGen counts pin changes; scanned remembers, per file, the content
	// hash and pin generation of its last good scan in this run, so a save
	// of identical bytes costs a hash, not a scan.
	pinGen  int
	scanned map[string]scanKey
	// autoKind remembers, per kind: auto target, what its content last
	// was, so an inventory is parsed once per scan, not first as a client
	// config.
	autoKind map[string]string
	// saved is what state.json holds, so unchanged state is not rewritten.
	saved []byte

	// hadState: an earlier run left a state file (readable or not), so
	// this is not a first start and a missing pin is an alert.
	hadState bool
	// pinBytes are the bytes of the pin in use; pinProblem is the open
	// PIN alert, if any; frozen: no pin at all after the first start, so
	// findings only the pin can clear stay open.
	pinBytes   []byte
	pinProblem *monitor.Alert
	frozen     bool
	// logDown: the last event could not be written; retry names the
	// files to re-scan so their unwritten events are announced again.
	logDown bool
	retry   map[string]bool
	// key is the per-host launch value key (hostKey); keyDone: looked up.
	key     launch.Key
	keyDone bool
	src     *sourceSet // the client tool sources (sources.go)
}

// scanKey is what a good scan depended on: the content, the file's mode
// (writable_config reads it: a chmod changes no byte) and the pin.
type scanKey struct {
	content string
	mode    fs.FileMode
	pinGen  int
}

// New makes the service of cfg, emitting every event to sink.
func New(cfg config.Config, sink notify.Sink, opt Options) *Daemon {
	opt = opt.withDefaults()
	d := &Daemon{
		cfg: cfg, opt: opt, fs: opt.FS, rules: detect.RuleSet(cfg.Rules), now: opt.Now, home: opt.Home,
		sink: sink, targets: map[string]target{}, reusers: map[string]*inventory.Reuser{}, owned: map[string]ownedView{}, scanned: map[string]scanKey{}, autoKind: map[string]string{}, retry: map[string]bool{},
		statePath: filepath.Join(cfg.StateDir, StateFile), state: monitor.NewState(),
	}
	if d.rules == "" {
		d.rules = detect.RulesDefault
	}
	for _, t := range cfg.Targets {
		d.addTarget(t.Path, string(t.Kind), false)
	}
	if cfg.Capture.Enabled {
		for _, cc := range cfg.Capture.Configs {
			if out := captureOutput(cfg, cc); d.addTarget(out, KindInventory, true) {
				t := d.targets[out]
				t.capture = true
				d.targets[out] = t
			}
		}
	}
	d.discover()
	d.discoverSources()
	return d
}

func (d *Daemon) addTarget(path, kind string, discovered bool) bool {
	if kind == "" {
		kind = string(config.KindAuto)
	}
	if _, ok := d.targets[path]; ok {
		return false
	}
	d.targets[path] = target{path: path, kind: kind, identity: monitor.Identity(path, d.home), discovered: discovered}
	return true
}

// discover adds every client config location of this host (when the
// config says discover: true); it reports whether any target is new.
// Locations that do not exist yet are watched too, so a client installed
// later is noticed; globbed ones (VS Code profiles, plugins) and the
// projects ~/.claude.json names are looked up again on each full rescan.
func (d *Daemon) discover() bool {
	if !d.cfg.Discover {
		return false
	}
	var projects []string
	for _, t := range d.cfg.Targets {
		if st, err := d.fs.Stat(t.Path); err == nil && st.IsDir() {
			projects = append(projects, t.Path)
		}
	}
	added := false
	for _, c := range DiscoverTargets(d.opt, projects) {
		if d.addTarget(c.Path, c.Kind, true) {
			added = true
		}
	}
	return added
}

// emit delivers events; one that does not reach the event log is undone
// in the state (see undelivered) so that it is announced again.
func (d *Daemon) emit(evs ...engine.Event) {
	for _, ev := range evs {
		if err := d.deliver(ev); err != nil {
			d.undelivered(ev, err)
		} else if !isUnwritableAlert(ev) {
			d.delivered()
		}
	}
}

func (d *Daemon) event(action, level, file, msg string) engine.Event {
	return engine.Event{Time: d.now(), Action: action, Level: level, File: file, Message: msg}
}

// Run is the service loop. It returns when ctx is cancelled.
func (d *Daemon) Run(ctx context.Context) error {
	if err := d.fs.MkdirAll(d.cfg.StateDir, 0o700); err != nil {
		return Runtime(fmt.Errorf("creating state directory: %w", err))
	}
	d.emit(d.event(engine.ActionDaemonStarted, "info", "",
		fmt.Sprintf("descriptorpin %s watching %d %s (pin %s, rules %s)", d.opt.Version, len(d.targets), english.Plural(len(d.targets), "file", "files"), sanitize.Text(d.cfg.Pin), d.rules)))
	d.loadState()
	d.dropUnwatched()
	d.startPin()

	w, err := d.opt.Watch(d.watchPaths(), watcher.Options{Debounce: d.cfg.Debounce, RescanInterval: d.cfg.RescanInterval})
	if err != nil {
		return Runtime(fmt.Errorf("starting the watcher: %w", err))
	}
	defer w.Close()
	// Scheduled capture runs off the loop; its events come back here. A
	// capture still running at shutdown sees ctx cancelled, and Run waits
	// for it (it may be writing an inventory) before it returns.
	captured := make(chan []engine.Event, 1)
	var captureTick <-chan time.Time
	capturing := false
	var captures sync.WaitGroup
	defer captures.Wait()
	startCapture := func() {
		if capturing {
			return
		}
		capturing = true
		pin, key := d.pin, d.hostKey()
		captures.Add(1)
		go func() {
			defer captures.Done()
			var evs []engine.Event
			for _, cc := range d.cfg.Capture.Configs {
				evs = append(evs, d.capture(ctx, cc, pin, key)...)
			}
			select {
			case captured <- evs:
			case <-ctx.Done():
			}
		}()
	}
	if d.cfg.Capture.Enabled {
		t := time.NewTicker(d.cfg.Capture.Interval)
		defer t.Stop()
		captureTick = t.C
		startCapture() // the first capture right after start
	}
	// The retry of events that could not be written runs on a timer
	// armed only while there are some; a deleted state directory is seen
	// by the watcher (the state file is one of its paths). An idle
	// service has no timer but the trim's, armed by work, and the
	// watcher's own (the safety-net rescan).
	retry := time.NewTimer(d.opt.CheckInterval)
	retry.Stop()
	defer retry.Stop()
	retrying := false
	// After a burst of work (the start scan, a change, a rescan), once the
	// loop has been quiet for trimAfter, the heap the work left is handed
	// back to the system: an idle service holds what it keeps, not what a
	// scan once needed. One timer, armed only by work.
	trim := time.NewTimer(trimAfter)
	defer trim.Stop()
	trimmed := false
	for {
		if !retrying && (len(d.retry) > 0 || d.logDown) {
			retry.Reset(d.opt.CheckInterval)
			retrying = true
		}
		select {
		case <-trim.C:
			go trimMemory(!trimmed) // a collection: the loop goes on meanwhile
			trimmed = true
		case <-retry.C:
			retrying = false
			d.housekeep()
		case <-captureTick:
			startCapture()
		case evs := <-captured:
			capturing = false
			d.emit(evs...)
			d.housekeep()
			collectAfterWork()
			trim.Reset(trimAfter)
		case <-ctx.Done():
			captures.Wait()
			d.saveState()
			d.saveSources(true)
			d.emit(d.event(engine.ActionDaemonStopped, "info", "", "stopping: "+stopReason(ctx)))
			return nil
		case sig, ok := <-w.Signals():
			if !ok {
				return Runtime(errors.New("the watcher stopped unexpectedly"))
			}
			if sig.All {
				if added := d.discover(); d.discoverSources() || added {
					if err := w.SetTargets(d.watchPaths()); err != nil {
						d.emit(d.failed("", fmt.Errorf("watching newly discovered configs: %w", err)))
					}
				}
				d.reloadPin()
				d.scanAll()
			} else if sig.Path == d.statePath {
				// The service's own write, or the state (or its directory)
				// deleted under it: only the latter is work.
				if _, err := d.fs.Stat(d.statePath); err == nil {
					continue
				}
			} else if sig.Path == d.cfg.Pin {
				d.reloadPin()
			} else if t, ok := d.targets[sig.Path]; ok {
				d.emit(d.scanTarget(t)...)
			} else {
				d.sourceSignal(sig.Path)
			}
			d.housekeep()
			collectAfterWork()
			trim.Reset(trimAfter)
		case h, ok := <-w.Health():
			if !ok {
				continue
			}
			d.health(h)
			d.saveState()
		}
	}
}

// trimAfter is how long the loop waits after its last piece of work
// before it returns the freed heap to the system (debug.FreeOSMemory: a
// garbage collection, then the free pages released). Longer than a
// debounce, so a burst of saves is one trim; short, so the service is
// trimmed soon after it settles (a start is the start scan, then the
// pin's own write seen a debounce later).
const trimAfter = 500 * time.Millisecond

// collectAfterWork runs a garbage collection once a piece of work's
// events and state are written, so the next change starts with the
// heap's whole headroom and its own collection does not fall inside the
// latency of its event: with two cores, a cycle's mark worker takes one
// of them while the change is scanned. It costs about 3-4 ms of CPU per
// change of a 1,000-tool file, off the event's path; it took the p99 of
// bench/service's change latency from 7.8-62 ms to 5.9-7.0 ms (4 runs
// each, docs/benchmarks.md). Changes are rare and debounced, so an idle
// service never runs it.
func collectAfterWork() { runtime.GC() }

// idleBudget is the most an idle service holds resident (VmRSS) with
// the binary's own pages (its code and read-only data) kept after a trim.
// The first trim, after start-up, releases those pages (start-up touched
// most of the binary: every package's init). A change reads back about
// 6-7 MiB of them, the code a change runs; later trims keep them while
// the whole resident set, after the heap's free pages went back, is
// within the budget, so the next change does not fault them in again.
// Past it (many watched files, or rarer work such as a pin reload that
// touched more of the binary) they are released again. Under the 20 MB
// the idle service may hold (issue 16), with room for the heap to move.
const idleBudget = 17 << 20

// trimMemory hands back what the last work needed and the service does
// not keep: the heap's free pages (debug.FreeOSMemory: a collection, then
// the pages released) and, after start-up or past idleBudget, the
// resident pages of the binary's code and read-only data (releaseText).
// first says whether this is the daemon's first trim.
func trimMemory(first bool) {
	debug.FreeOSMemory()
	if resident, ok := residentBytes(); first || !ok || resident > idleBudget {
		releaseText()
	}
}

func stopReason(ctx context.Context) string {
	if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) {
		return c.Error()
	}
	return "signal received"
}

func (d *Daemon) watchPaths() []string {
	paths := []string{d.cfg.Pin, d.statePath}
	for p := range d.targets {
		paths = append(paths, p)
	}
	paths = append(paths, d.sourceWatchPaths()...)
	sort.Strings(paths)
	return paths
}

func (d *Daemon) sortedTargets() []target {
	out := make([]target, 0, len(d.targets))
	for _, t := range d.targets {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

func (d *Daemon) health(h watcher.Health) {
	if d.state.Degraded == nil {
		d.state.Degraded = map[string]string{}
	}
	if h.Degraded {
		d.state.Degraded[h.Path] = sanitize.Text(h.Reason)
		ev := d.event(engine.ActionWatchDegraded, "warn", h.Path, "watch degraded, relying on periodic rescans: "+sanitize.Text(h.Reason))
		ev.Error = sanitize.Text(h.Reason)
		d.emit(ev)
		return
	}
	delete(d.state.Degraded, h.Path)
	d.emit(d.event(engine.ActionWatchRecovered, "info", h.Path, "watch recovered"))
}

// --- the pin ---

// startPin loads the pin, or on a true first start with no pin trusts
// what is there now (trust on first use). After the first start a
// missing or unusable pin is a high alert, and the service scans against
// the copy of the last good pin it keeps: trusting on first use again
// would pin (and resolve) whatever an attacker changed meanwhile.
func (d *Daemon) startPin() {
	data, _, err := read(d.fs, "pin", d.cfg.Pin)
	first := d.firstStart()
	if errors.Is(err, fs.ErrNotExist) {
		switch {
		case !first:
			d.pinLost(engine.RulePinMissing, fmt.Errorf("the pin %s is missing after the first start", sanitize.Text(d.cfg.Pin)))
		case d.cfg.TrustOnFirstUse:
			d.trustOnFirstUse()
		default:
			// Every tool is reported ADDED until a person pins it.
			d.pin = &pin.Pin{Format: pin.Format2, Exclude: pin.DefaultExclude()}
		}
		return // the watcher's start signal scans everything
	}
	if err == nil {
		d.pinHash = hashBytes(data)
		var p *pin.Pin
		if p, err = pin.Load(d.cfg.Pin, data); err == nil {
			d.pin = p
			d.state.PinHash = d.pinHash
			d.pinFound(p, data)
			return
		}
	}
	ev := d.event(engine.ActionScanFailed, "error", d.cfg.Pin, "the pin cannot be used: "+sanitize.Text(err.Error()))
	ev.Error = sanitize.Text(err.Error())
	d.emit(ev)
	d.pinLost(engine.RulePinInvalid, err)
}

func (d *Daemon) trustOnFirstUse() {
	at := pin.ApprovedAt(d.now())
	ap := pin.Approval{By: "trust-on-first-use", Note: fmt.Sprintf("trusted on first use by %s on %s", d.opt.User, d.opt.Host), At: at}
	tofu := &pin.Pin{Format: pin.Format2, Exclude: pin.DefaultExclude()}
	var trusted []string
	for _, t := range d.sortedTargets() {
		data, _, err := read(d.fs, "target", t.path)
		if err != nil {
			continue // a target that appears later is never auto-pinned
		}
		inv, _, err := d.parseTarget(t, data)
		if err != nil {
			continue
		}
		d.forgetParse(t.path) // the pin keeps parts of inv
		p, err := pin.BuildWith(inv, pin.Format2, ap, pin.Options{Source: d.source(t.path), Key: d.hostKey()})
		if err != nil {
			continue
		}
		tofu.Merge(p)
		trusted = append(trusted, t.identity)
	}
	out := tofu.Marshal()
	if err := d.fs.MkdirAll(filepath.Dir(d.cfg.Pin), 0o700); err != nil {
		d.emit(d.failed(d.cfg.Pin, fmt.Errorf("creating the pin's directory: %w", err)))
		return
	}
	if err := d.fs.WriteFile(d.cfg.Pin, out, 0o644); err != nil {
		d.emit(d.failed(d.cfg.Pin, err))
		return
	}
	d.pin = tofu
	d.pinHash = hashBytes(out)
	d.state.PinHash = d.pinHash
	d.pinFound(tofu, out)
	change := monitor.DiffPins(nil, tofu)
	change.ApprovedBy = []string{"trust-on-first-use"}
	ev := d.event(engine.ActionPinCreated, "warn", d.cfg.Pin,
		fmt.Sprintf("no pin found: trusted the current state of %s on first use; review it",
			english.Count(len(trusted), "file", "files")+" ("+english.Count(len(tofu.Tools), "tool", "tools")+", "+english.Count(len(tofu.Servers), "server", "servers")+")")+noTools(d.cfg, tofu))
	ev.Pin = change
	d.emit(ev)
}

func (d *Daemon) failed(file string, err error) engine.Event {
	ev := d.event(engine.ActionScanFailed, "error", file, sanitize.Text(err.Error()))
	ev.Error = sanitize.Text(err.Error())
	return ev
}

// reloadPin re-reads the pin; a change is announced and every target is
// re-evaluated. An invalid pin is reported and the last good one kept.
func (d *Daemon) reloadPin() {
	data, _, err := read(d.fs, "pin", d.cfg.Pin)
	if err != nil {
		if d.pinHash != "missing" {
			d.pinHash = "missing"
			d.emit(d.failed(d.cfg.Pin, fmt.Errorf("%w; keeping the last good pin", err)))
			rule := engine.RulePinInvalid
			if errors.Is(err, fs.ErrNotExist) {
				rule = engine.RulePinMissing
			}
			d.pinLost(rule, err)
		}
		return
	}
	h := hashBytes(data)
	if h == d.pinHash {
		return
	}
	d.pinHash = h
	p, err := pin.Load(d.cfg.Pin, data)
	if err != nil {
		d.emit(d.failed(d.cfg.Pin, fmt.Errorf("%w; keeping the last good pin", err)))
		d.pinLost(engine.RulePinInvalid, err)
		return
	}
	d.pinFound(p, data)
	change := monitor.DiffPins(d.pin, p)
	resaved := d.pin != nil && bytes.Equal(d.pin.Marshal(), p.Marshal())
	d.pin = p
	d.state.PinHash = h
	// Any change to the pin's bytes re-evaluates every target: the diff of
	// entries does not see every field a scan reads (a server's
	// header_keys, fields.exclude), and the scan cache is keyed on pinGen.
	d.pinGen++
	if resaved {
		// Reformatted or re-saved as it was: nothing to announce, and the
		// re-evaluation finds nothing new.
		d.scanAll()
		return
	}
	msg := fmt.Sprintf("pin changed: %d added, %d removed, %d re-approved, %d accepted, %d unaccepted",
		len(change.Added), len(change.Removed), len(change.Reapproved), len(change.Accepted), len(change.Unaccepted))
	if len(change.ApprovedBy) > 0 {
		msg += " by " + strings.Join(change.ApprovedBy, ", ")
	}
	if change.ExcludeWarning = pin.ExcludeWarning(p); change.ExcludeWarning != "" {
		msg += "; warning: " + change.ExcludeWarning
	}
	ev := d.event(engine.ActionPinChanged, "warn", d.cfg.Pin, msg)
	ev.Pin = change
	d.emit(ev)
	d.scanAll()
}

// --- scanning ---

func (d *Daemon) scanAll() {
	for _, t := range d.sortedTargets() {
		d.emit(d.scanTarget(t)...)
	}
	d.scanSources()
}

func (d *Daemon) scanTarget(t target) []engine.Event {
	fs := d.state.File(t.path, t.identity, t.kind)
	now := d.now()
	data, mode, err := read(d.fs, "target", t.path)
	if err != nil {
		delete(d.scanned, t.path)
		d.cache.Forget(t.path) // a file that is gone keeps nothing in the cache
		delete(d.reusers, t.path)
		delete(d.owned, t.path)
		if t.discovered && errors.Is(err, os.ErrNotExist) && fs.ContentHash == "" && len(fs.Open) == 0 {
			// A client that is not installed: nothing to say.
			fs.Result, fs.LastScan = "absent", engine.Stamp(now)
			return nil
		}
		evs := monitor.ApplyFailure(fs, err, now)
		if a, ok := readAlert(t, err); ok {
			evs = append(evs, monitor.SetAlerts(fs, engine.ClassInput, []monitor.Alert{a}, now)...)
		}
		return evs
	}
	hash := hashBytes(data)
	key := scanKey{hash, mode, d.pinGen}
	if k, ok := d.scanned[t.path]; ok && k == key && fs.Result != "failed" {
		return nil
	}
	wasConfig := t.kind == KindClientConfig || t.kind == KindAuto && d.autoKind[t.path] == KindClientConfig
	wasConfig = wasConfig && fs.ContentHash != ""
	inv, kind, err := d.parseTarget(t, data)
	var alerts []monitor.Alert
	if err != nil {
		// The client may read what the strict parser refuses: scan that,
		// and report the file's problem as a finding of its own.
		linv, lkind, lerr := d.parseLenient(t, data)
		if lerr != nil || !lenientWorthy(err) {
			delete(d.scanned, t.path)
			evs := monitor.ApplyFailure(fs, err, now)
			return append(evs, monitor.SetAlerts(fs, engine.ClassInput, []monitor.Alert{parseAlert(t, err, wasConfig)}, now)...)
		}
		inv, kind = linv, lkind
		alerts = append(alerts, lenientAlert(t, err))
	}
	d.scanned[t.path] = key
	var servers []string
	for _, s := range inv.Servers {
		servers = append(servers, s.Name)
	}
	var evs []engine.Event
	if t.capture && d.pin != nil && d.cfg.TrustOnFirstUse {
		evs = d.firstCapture(t, inv)
	}
	opt := scan.ScanOptions{Rules: d.rules, FileMode: mode, Key: d.hostKey()}
	if scanCache {
		opt.Cache = &d.cache
	}
	var pin *pin.Pin
	if d.pin != nil {
		pin = d.ownedBy(t.path, Claim(t.path, d.cfg.Pin, d.home, inv, kind, fs.Servers))
	} else {
		opt.Classes = []engine.Class{engine.Shadow, engine.Poison, engine.Transport}
	}
	r := scan.Scan(inv, pin, opt)
	evs = append(evs, monitor.ApplyScanKeep(fs, r, hash, servers, now, d.keepWithoutPin)...)
	fs.Notes = r.Notes // what the scan could not check: status shows it
	return append(evs, monitor.SetAlerts(fs, engine.ClassInput, alerts, now)...)
}

// ownedView is the part of a pin one claim owns.
type ownedView struct {
	pin   *pin.Pin // the pin it is part of (pins are replaced, never changed)
	claim string   // claimKey of the claim
	view  *pin.Pin
}

// ownedBy is d.pin.Owned(c), kept for path while neither changes: a
// change that renames no server claims what the last scan claimed.
func (d *Daemon) ownedBy(path string, c pin.Claim) *pin.Pin {
	key := claimKey(c)
	if v, ok := d.owned[path]; ok && v.pin == d.pin && v.claim == key {
		return v.view
	}
	view := d.pin.Owned(c)
	d.owned[path] = ownedView{pin: d.pin, claim: key, view: view}
	return view
}

// claimKey is every field of c, each list length-prefixed.
func claimKey(c pin.Claim) string {
	var b []byte
	for _, l := range [][]string{c.Sources, c.Before, c.Declared} {
		b = strconv.AppendInt(b, int64(len(l)), 10)
		for _, s := range l {
			b = append(strconv.AppendInt(append(b, ':'), int64(len(s)), 10), ':')
			b = append(b, s...)
		}
		b = append(b, ';')
	}
	for _, f := range []bool{c.LaunchOnly, c.ToolsOnly, c.Whole} {
		b = strconv.AppendBool(b, f)
	}
	return string(b)
}

// lenientWorthy reports whether a strict parse error is one a lenient
// client reads past (rather than, say, a truncated file or a cap).
func lenientWorthy(err error) bool {
	msg := err.Error()
	for _, s := range []string{"duplicate", "surrogate", "UTF-8", "is already used by"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// parseTarget reads a target as its kind says. A kind: auto target that
// was an inventory is read as one first: ParseAny would parse it as a
// client config before it finds out.
func (d *Daemon) parseTarget(t target, data []byte) (*engine.Inventory, string, error) {
	if t.kind == KindInventory {
		inv, err := d.parseInventory(t.path, data)
		if err != nil {
			return nil, "", err
		}
		return inv, KindInventory, nil
	}
	if t.kind == KindAuto && d.autoKind[t.path] == KindInventory {
		if inv, err := d.parseInventory(t.path, data); err == nil {
			return inv, KindInventory, nil
		}
	}
	delete(d.reusers, t.path)
	inv, kind, err := ParseAny(t.path, data, t.kind, d.home)
	if t.kind == KindAuto {
		d.autoKind[t.path] = kind
	}
	return inv, kind, err
}

// scanCache says whether scans go through the daemon's cache (the tests
// compare the events of both).
var scanCache = true

// reuseMinBytes is the smallest inventory whose last good parse the
// service keeps between changes (inventory.Reuser): below it a parse
// costs well under a millisecond, and keeping nothing keeps an idle
// service small.
var reuseMinBytes = 64 << 10

// parseInventory is ParseAny for an inventory (the cap on containers,
// the parse, the caps on servers and tools). A large one is parsed
// through its Reuser: a change costs the servers it touched, and the
// result is the same.
func (d *Daemon) parseInventory(path string, data []byte) (*engine.Inventory, error) {
	r := d.reusers[path]
	if len(data) < reuseMinBytes {
		delete(d.reusers, path)
		r = nil
	} else if r == nil {
		r = &inventory.Reuser{MaxContainers: MaxContainers}
		d.reusers[path] = r
	}
	var inv *engine.Inventory
	ok := false
	if r != nil {
		if inv, ok = reuserUpdate(r, path, data); ok { // checks the container cap itself
			d.reused++
		}
	}
	if !ok {
		if err := checkShape(path, data); err != nil {
			return nil, err
		}
		var err error
		if r != nil {
			inv, err = reuserParse(r, path, data)
		} else {
			inv, err = parseInventory(path, data)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := checkCounts(path, inv); err != nil {
		return nil, err
	}
	return inv, nil
}

// forgetParse drops the kept parse of path: an inventory whose values
// something keeps (a pin built from it) must not be reused, since a
// reuse moves the offsets of what it shares.
func (d *Daemon) forgetParse(path string) { delete(d.reusers, path) }

// --- state ---

func (d *Daemon) loadState() {
	d.state = monitor.NewState()
	data, _, err := read(d.fs, "state", d.statePath)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	d.hadState = true
	if err == nil {
		var st monitor.State
		if err = json.Unmarshal(data, &st); err == nil && st.Version != monitor.StateVersion {
			err = fmt.Errorf("state version %d, want %d", st.Version, monitor.StateVersion)
		}
		if err == nil {
			err = st.Check()
		}
		if err == nil {
			if st.Files == nil {
				st.Files = map[string]*monitor.FileState{}
			}
			d.state = &st
			return
		}
	}
	// Keep the unreadable state for a person to look at; start afresh.
	// A file name, not a timestamp field: no colons (Windows forbids them).
	aside := d.statePath + ".unreadable-" + d.now().UTC().Format("20060102T150405Z")
	_ = d.fs.Rename(d.statePath, aside)
	d.emit(d.failed(d.statePath, fmt.Errorf("state unreadable (%v); moved to %s and starting afresh", err, filepath.Base(aside))))
}

// dropUnwatched resolves the open findings of files no longer watched.
func (d *Daemon) dropUnwatched() {
	var gone []string
	for p, f := range d.state.Files {
		if f.Kind == "pin" || f.Kind == "eventlog" {
			continue // the service's own alerts
		}
		if _, ok := d.targets[p]; !ok && !d.isSource(p) {
			gone = append(gone, p)
		}
	}
	sort.Strings(gone)
	for _, p := range gone {
		fs := d.state.Files[p]
		ids := make([]string, 0, len(fs.Open))
		for id := range fs.Open {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			of := fs.Open[id]
			ev := d.event(engine.ActionFindingResolved, "info", p, "resolved (file no longer watched): "+of.Summary)
			ev.Finding = of
			d.emit(ev)
		}
		delete(d.state.Files, p)
	}
}

func (d *Daemon) saveState() {
	data, err := json.MarshalIndent(d.state, "", "  ")
	if err != nil {
		return
	}
	data = append(data, '\n')
	d.ensureStateDir()
	if bytes.Equal(data, d.saved) {
		return
	}
	if err := d.fs.WriteFile(d.statePath, data, 0o600); err != nil {
		d.emit(d.failed(d.statePath, err))
		return
	}
	d.saved = data
}

func hashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
