package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/descriptorpin/descriptorpin/capture"
	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/engine/monitor"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/engine/scan"
)

// Scheduled capture: with capture.enabled the service captures the listed
// client configs' tool lists every capture.interval and writes each to an
// inventory it watches, so a capture is an ordinary file change for the
// scanner. Capturing a stdio server runs its command unattended, so it
// needs capture.allow_exec, and even then only a server whose launch config
// matches the pin is started: an edited launch line is a LAUNCH finding and
// is not run until approved. A config change never triggers a capture.
// With capture.identify_as each server is also captured as those client
// names, and a server that shows them other tools than it shows
// descriptorpin is a BAIT-AND-SWITCH finding (baitAndSwitch).

// captureOutput is where a config's inventory goes.
func captureOutput(cfg config.Config, cc config.CaptureConfig) string {
	if cc.Output != "" {
		return cc.Output
	}
	sum := sha256.Sum256([]byte(cc.Path))
	base := strings.TrimSuffix(filepath.Base(cc.Path), filepath.Ext(cc.Path))
	return filepath.Join(cfg.StateDir, "inventories", fmt.Sprintf("%s-%s.json", base, hex.EncodeToString(sum[:4])))
}

// keepStale adds to doc, from the inventory at out, the last good entry
// of every server in down (not captured this time), with a "stale" member
// naming the failure and since when (the parser ignores it, so the
// descriptors and findings are those of the last good capture).
func keepStale(fsys FS, out string, doc []byte, down map[string]string, now time.Time) ([]byte, int, error) {
	if len(down) == 0 {
		return doc, 0, nil
	}
	prevData, _, err := read(fsys, "inventory", out)
	if err != nil {
		return doc, 0, nil // no earlier capture
	}
	type invDoc struct {
		Servers []map[string]json.RawMessage `json:"servers"`
	}
	var prev, cur invDoc
	if json.Unmarshal(prevData, &prev) != nil {
		return doc, 0, nil
	}
	if err := json.Unmarshal(doc, &cur); err != nil {
		return nil, 0, fmt.Errorf("re-reading the captured inventory: %w", err)
	}
	have := map[string]bool{}
	for _, s := range cur.Servers {
		var n string
		_ = json.Unmarshal(s["name"], &n)
		have[n] = true
	}
	kept := 0
	for _, s := range prev.Servers {
		var n string
		_ = json.Unmarshal(s["name"], &n)
		why, isDown := down[n]
		if !isDown || have[n] {
			continue
		}
		since := engine.Stamp(now)
		var old struct {
			Since string `json:"since"`
		}
		if raw, ok := s["stale"]; ok && json.Unmarshal(raw, &old) == nil && old.Since != "" {
			since = old.Since
		}
		mark, _ := json.Marshal(map[string]string{"since": since, "error": sanitize.Text(why)})
		s["stale"] = mark
		cur.Servers = append(cur.Servers, s)
		have[n] = true
		kept++
	}
	if kept == 0 {
		return doc, 0, nil
	}
	sort.SliceStable(cur.Servers, func(i, j int) bool {
		var a, b string
		_ = json.Unmarshal(cur.Servers[i]["name"], &a)
		_ = json.Unmarshal(cur.Servers[j]["name"], &b)
		return a < b
	})
	data, err := json.Marshal(cur)
	if err != nil {
		return nil, 0, err
	}
	return append(data, '\n'), kept, nil
}

// capture runs Options.Capture, or the real capture.
func (d *Daemon) capture(ctx context.Context, cc config.CaptureConfig, pinned *pin.Pin, key launch.Key) []engine.Event {
	if d.opt.Capture != nil {
		return d.opt.Capture(ctx, cc, pinned)
	}
	return captureConfig(ctx, d.cfg, d.opt, cc, pinned, key)
}

// captureConfig captures one client config into its inventory. It touches
// no daemon state: pin is read only (Server lookups) and events are
// returned, for the loop to emit. A stdio server is started only when its
// launch, values included, is the approved one under key
// (launch.MatchesApproved): without the key, or with a pin that has no
// value digests, it is not started.
func captureConfig(ctx context.Context, cfg config.Config, o Options, cc config.CaptureConfig, pinned *pin.Pin, key launch.Key) []engine.Event {
	out := captureOutput(cfg, cc)
	now := o.Now
	fail := func(msg string) []engine.Event {
		return []engine.Event{{Time: now(), Action: engine.ActionScanFailed, Level: "error", File: cc.Path,
			Message: "scheduled capture: " + sanitize.Text(msg), Error: sanitize.Text(msg)}}
	}
	data, _, err := read(o.FS, "client config", cc.Path)
	if err != nil {
		return fail(err.Error())
	}
	inv, _, err := ParseAny(cc.Path, data, KindClientConfig, o.Home)
	if err != nil {
		return fail(err.Error())
	}
	var run []*engine.Server
	var skipped []string
	for _, s := range inv.Servers {
		if s.Disabled {
			continue
		}
		if s.Transport == "stdio" || s.Command != "" {
			var ps *pin.Server
			if pinned != nil {
				ps = pinned.Server(s.Name)
			}
			switch {
			case !cfg.Capture.AllowExec:
				skipped = append(skipped, s.Name+" (stdio needs capture.allow_exec)")
				continue
			case ps == nil || !launch.MatchesApproved(ps.Approved(), s, key):
				skipped = append(skipped, s.Name+" (its launch config, values included, is not the approved one)")
				continue
			}
		}
		run = append(run, s)
	}
	sort.Slice(run, func(i, j int) bool { return run[i].Name < run[j].Name })
	opt := capture.Options{Timeout: cfg.Capture.Timeout, ClientVersion: o.Version, Lookup: o.LookupEnv, Home: o.Home, GOOS: o.GOOS}
	var evs []engine.Event
	if len(skipped) > 0 {
		evs = append(evs, fail("not started: "+strings.Join(skipped, ", "))...)
	}
	if len(run) == 0 {
		return evs
	}
	var ok []*capture.Result
	var failed []string
	probed := map[string]bool{} // servers every identity was captured from
	down := map[string]string{} // servers not captured this time, and why
	for _, sk := range skipped {
		name, why, _ := strings.Cut(sk, " (")
		down[name] = "not started: " + strings.TrimSuffix(why, ")")
	}
	caps := capture.CaptureAll(ctx, run, cfg.Capture.IdentifyAs, opt)
	for _, c := range caps {
		if c.Main.Err != nil {
			failed = append(failed, c.Server.Name+": "+c.Main.Err.Error())
			down[c.Server.Name] = c.Main.Err.Error()
			continue
		}
		ok = append(ok, c.Main)
		if c.Err != nil {
			failed = append(failed, c.Server.Name+": "+c.Err.Error())
		} else {
			probed[c.Server.Name] = true
		}
	}
	if len(failed) > 0 {
		evs = append(evs, fail("failed "+strings.Join(failed, "; "))...)
	}
	if len(cfg.Capture.IdentifyAs) > 0 && ctx.Err() == nil {
		evs = append(evs, baitAndSwitch(cfg, o, cc, caps, probed)...)
	}
	if ctx.Err() != nil {
		return evs
	}
	var doc []byte
	if len(ok) > 0 {
		doc, err = capture.Document(ok)
	} else {
		doc = []byte(`{"servers":[]}` + "\n")
	}
	// A server that failed (or was not started) this time keeps its last
	// good tools, marked stale: dropping it would resolve its open
	// findings (a POISON, a MUTATION) because of a failure.
	kept := 0
	if err == nil {
		doc, kept, err = keepStale(o.FS, out, doc, down, now())
	}
	if err == nil && len(ok) == 0 && kept == 0 {
		return evs
	}
	if err == nil {
		_, err = inventory.Parse(out, doc)
	}
	if err == nil && len(doc) > engine.MaxFileBytes {
		err = fmt.Errorf("the inventory would be larger than %d MiB", engine.MaxFileBytes>>20)
	}
	if err == nil {
		if prev, _, rerr := read(o.FS, "inventory", out); rerr == nil && bytes.Equal(prev, doc) {
			return evs
		}
		if err = o.FS.MkdirAll(filepath.Dir(out), 0o700); err == nil {
			err = o.FS.WriteFile(out, doc, 0o600)
		}
	}
	if err != nil {
		evs = append(evs, fail(err.Error())...)
	}
	return evs
}

// baitFindings are the BAIT-AND-SWITCH findings of one capture: one per
// server and identity whose tool list differs from the one descriptorpin
// was shown. Its id is stable while the server keeps lying to that
// client the same way.
func baitFindings(caps []*capture.Captured) []engine.Finding {
	var out []engine.Finding
	for _, c := range caps {
		for _, d := range c.Diffs {
			if d == nil || d.Empty() {
				continue
			}
			var parts []string
			if len(d.Added) > 0 {
				parts = append(parts, "only it is shown "+strings.Join(d.Added, ", "))
			}
			if len(d.Removed) > 0 {
				parts = append(parts, "it is not shown "+strings.Join(d.Removed, ", "))
			}
			for _, ch := range d.Changed {
				parts = append(parts, ch.Tool+" differs in "+strings.Join(ch.Fields, ", "))
			}
			detail := fmt.Sprintf("as %q the server lists other tools than as %q: %s", d.Identity, d.Baseline, strings.Join(parts, "; "))
			out = append(out, engine.Finding{
				ID:    engine.StableID(string(engine.BaitAndSwitch), d.Server, d.Identity, detail),
				Class: engine.BaitAndSwitch, Severity: engine.High,
				Subject: d.Server, Server: d.Server, Detail: detail,
			})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// probeState is where the open BAIT-AND-SWITCH findings of a client
// config are kept between captures and restarts, so each opens and
// resolves once, like every other finding.
func probeState(cfg config.Config, cc config.CaptureConfig) string {
	sum := sha256.Sum256([]byte(cc.Path))
	return filepath.Join(cfg.StateDir, "probes", hex.EncodeToString(sum[:8])+".json")
}

// baitAndSwitch turns the capture's probe differences into finding-opened
// and finding-resolved events through the monitor's state machine, over
// a state of their own (the scan of the inventory never sees the other
// identities' lists). A finding of a server that was not probed this time
// (skipped, failed) stays open.
func baitAndSwitch(cfg config.Config, o Options, cc config.CaptureConfig, caps []*capture.Captured, probed map[string]bool) []engine.Event {
	path := probeState(cfg, cc)
	fs := &monitor.FileState{}
	if data, _, err := read(o.FS, "probe state", path); err == nil {
		_ = json.Unmarshal(data, fs) // a broken state starts over: findings open again
	}
	fs.Path, fs.Identity, fs.Kind = cc.Path, monitor.Identity(cc.Path, o.Home)+"#identify_as", KindClientConfig
	if fs.Open == nil {
		fs.Open = map[string]*engine.OpenFinding{}
	}
	kept := map[string]*engine.OpenFinding{}
	for id, of := range fs.Open {
		if !probed[of.Server] {
			kept[id] = of
			delete(fs.Open, id)
		}
	}
	r := &scan.Report{File: cc.Path, Rules: detect.RulesDefault, Findings: baitFindings(caps)}
	evs := monitor.ApplyScan(fs, r, "", nil, o.Now())
	for id, of := range kept {
		fs.Open[id] = of
	}
	data, err := json.Marshal(fs)
	if err == nil {
		if err = o.FS.MkdirAll(filepath.Dir(path), 0o700); err == nil {
			err = o.FS.WriteFile(path, data, 0o600)
		}
	}
	if err != nil {
		evs = append(evs, engine.Event{Time: o.Now(), Action: engine.ActionScanFailed, Level: "error", File: cc.Path,
			Message: "scheduled capture: cannot record the identify_as findings: " + sanitize.Text(err.Error()), Error: sanitize.Text(err.Error())})
	}
	return evs
}

// ProbeStates reads the states the scheduled capture keeps of its
// BAIT-AND-SWITCH findings (<state_dir>/probes/*.json), for status to
// count them with their client config. Unreadable ones are left out.
func ProbeStates(stateDir string) []*monitor.FileState {
	names, _ := filepath.Glob(filepath.Join(stateDir, "probes", "*.json"))
	sort.Strings(names)
	var out []*monitor.FileState
	for _, n := range names {
		data, _, err := read(OS{}, "probe state", n)
		if err != nil {
			continue
		}
		fs := &monitor.FileState{}
		if json.Unmarshal(data, fs) == nil && fs.Path != "" {
			out = append(out, fs)
		}
	}
	return out
}
