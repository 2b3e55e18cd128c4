// Package monitor is the service's memory, as pure functions: it turns one
// scan (or one failure) of a watched file into the file's next state and
// the events that state change implies.
//
// A finding is announced once when it opens and once when it resolves,
// never while it stays open, also across restarts: the state is a plain
// value the caller persists. A read or parse failure keeps the last good
// findings (a half-written file never becomes a storm of REMOVED) and is
// announced once per distinct error.
package monitor

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/report"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/engine/scan"
)

// StateVersion is the layout version of State.
const StateVersion = 1

// State is everything the service remembers between scans and restarts.
type State struct {
	Version int                   `json:"version"`
	Files   map[string]*FileState `json:"files"`
	// Degraded holds the watches that are currently degraded, by path.
	Degraded map[string]string `json:"degraded,omitempty"`
	PinHash  string            `json:"pin_hash,omitempty"`
}

// NewState returns an empty state.
func NewState() *State {
	return &State{Version: StateVersion, Files: map[string]*FileState{}}
}

// Check reports a state that could not be written back: an open finding
// without one of the four severities (a state file that leaves one out).
// A state that fails it is unreadable, as one that does not parse is.
func (s *State) Check() error {
	for p, f := range s.Files {
		if f == nil {
			continue
		}
		for id, of := range f.Open {
			if of == nil || of.Severity < engine.Low || of.Severity > engine.Critical {
				return fmt.Errorf("%s: open finding %q has no severity", p, id)
			}
		}
	}
	return nil
}

// FileState is what the service knows of one watched file.
type FileState struct {
	Path     string `json:"path"`
	Identity string `json:"identity"` // host-independent name, e.g. ~/.cursor/mcp.json
	Kind     string `json:"kind"`
	// ContentHash is the SHA-256 of the last good content.
	ContentHash string `json:"content_hash,omitempty"`
	// Servers seen in the last good parse: a server that disappears from
	// the file still has its pinned tools reported REMOVED.
	Servers  []string `json:"servers,omitempty"`
	LastScan string   `json:"last_scan,omitempty"`
	// Result is "clean", "findings" or "failed".
	Result string `json:"result,omitempty"`
	// Error is the last failure, sanitised; empty after a good scan.
	Error string `json:"error,omitempty"`
	// Notes say what the last good scan could not check (launch values
	// without the host key, say), as found; empty when it checked all.
	Notes []string                       `json:"notes,omitempty"`
	Open  map[string]*engine.OpenFinding `json:"open"`
}

// File returns the state of a path, creating it.
func (s *State) File(path, identity, kind string) *FileState {
	if s.Files == nil {
		s.Files = map[string]*FileState{}
	}
	fs := s.Files[path]
	if fs == nil {
		fs = &FileState{Path: path, Open: map[string]*engine.OpenFinding{}}
		s.Files[path] = fs
	}
	fs.Identity, fs.Kind = identity, kind
	if fs.Open == nil {
		fs.Open = map[string]*engine.OpenFinding{}
	}
	return fs
}

// OpenCount is the number of open findings over all files.
func (s *State) OpenCount() int {
	n := 0
	for _, f := range s.Files {
		n += len(f.Open)
	}
	return n
}

func stamp(t time.Time) string { return engine.Stamp(t) }

// ApplyScan records a good scan of fs's file and returns the events: one
// finding-opened per finding not open before, one finding-resolved per open
// finding that is gone.
func ApplyScan(fs *FileState, r *scan.Report, contentHash string, servers []string, now time.Time) []engine.Event {
	return ApplyScanKeep(fs, r, contentHash, servers, now, nil)
}

// ApplyScanKeep is ApplyScan that leaves open every finding keep says to
// keep, even when the scan no longer reports it: a scan without the pin
// cannot tell that a MUTATION is gone. Alerts (IsAlert) are always kept:
// the service opens and resolves them (SetAlerts).
func ApplyScanKeep(fs *FileState, r *scan.Report, contentHash string, servers []string, now time.Time, keep func(*engine.OpenFinding) bool) []engine.Event {
	cur := map[string]*engine.OpenFinding{}
	for i := range r.Findings {
		f := &r.Findings[i]
		if !report.Counted(r, *f) {
			continue
		}
		of := Open(fs.Identity, f, r.Rules, now)
		cur[of.ID] = of
	}
	events := reconcile(fs, cur, now, func(old *engine.OpenFinding) bool {
		return IsAlert(old.Class) || keep != nil && keep(old)
	})
	fs.ContentHash = contentHash
	fs.Servers = append([]string(nil), servers...)
	sort.Strings(fs.Servers)
	fs.LastScan = stamp(now)
	fs.Error = ""
	fs.Result = "clean"
	if len(fs.Open) > 0 {
		fs.Result = "findings"
	}
	return events
}

// ApplyFailure records that fs's file could not be read or parsed. The open
// findings stay as they were. It returns a scan-failed event unless the
// same error was already reported for this file.
func ApplyFailure(fs *FileState, err error, now time.Time) []engine.Event {
	msg := sanitize.Text(err.Error())
	fs.LastScan = stamp(now)
	fs.Result = "failed"
	if fs.Error == msg {
		return nil
	}
	fs.Error = msg
	return []engine.Event{{
		Time: now, Action: engine.ActionScanFailed, Level: "error", File: fs.Path, Error: msg,
		Message: "scan failed, keeping the last good result: " + msg,
	}}
}

func levelFor(sev engine.Severity) string {
	if sev >= engine.High {
		return "warn"
	}
	return "info"
}

// Open turns a scan finding into the tracked form. Its id joins the file's
// host-independent identity with the finding's own stable id. The text is
// carried as found (the report's lines, unescaped): each writer (event
// log, desktop, webhook bodies, status) escapes it once, where it writes.
func Open(identity string, f *engine.Finding, rules detect.RuleSet, now time.Time) *engine.OpenFinding {
	lines := report.FindingLines(f, rules, report.TextOptions{Raw: true})
	of := &engine.OpenFinding{
		ID:        engine.StableID("open", identity, f.ID),
		FindingID: f.ID, Class: f.Class, Severity: f.Severity,
		Subject: f.Subject, Server: f.Server, Tool: f.Tool,
		Rule: f.Rule, Summary: lines[0], Details: lines[1:],
		Score: f.Score, OpenedAt: stamp(now),
	}
	if f.PinnedHash != "" {
		of.PinnedDigest = engine.Digest(f.PinnedHash)
	}
	if f.ScannedHash != "" {
		of.ScannedDigest = engine.Digest(f.ScannedHash)
	}
	for _, s := range f.Signals {
		of.Signals = append(of.Signals, s.Name)
	}
	if of.Rule == "" && len(f.Signals) > 0 {
		of.Rule = f.Signals[0].Name
	}
	return of
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Identity names a file without what differs between hosts: the home
// directory becomes "~" and separators become "/".
func Identity(path, home string) string {
	p := strings.ReplaceAll(path, "\\", "/")
	h := strings.TrimSuffix(strings.ReplaceAll(home, "\\", "/"), "/")
	if h != "" && (p == h || strings.HasPrefix(p, h+"/")) {
		return "~" + p[len(h):]
	}
	return p
}

// DiffPins says what changed from one pin to the next: pin.Diff, which
// pairs entries by the pin's own identity and compares every field.
func DiffPins(old, cur *pin.Pin) *engine.PinChange { return pin.Diff(old, cur) }

// reconcile makes fs's open findings match cur and returns the events:
// one finding-resolved per open finding not in cur (unless stay keeps
// it), then one finding-opened per finding of cur not open before, each
// in id order. ApplyScan and SetAlerts both go through it, so a finding
// opens and resolves the same way whoever reports it.
func reconcile(fs *FileState, cur map[string]*engine.OpenFinding, now time.Time, stay func(*engine.OpenFinding) bool) []engine.Event {
	var events []engine.Event
	for _, id := range sortedKeys(fs.Open) {
		if _, still := cur[id]; still {
			continue
		}
		old := fs.Open[id]
		if stay(old) {
			continue
		}
		events = append(events, engine.Event{
			Time: now, Action: engine.ActionFindingResolved, Level: "info", File: fs.Path, Finding: old,
			Message: "resolved: " + old.Summary,
		})
		delete(fs.Open, id)
	}
	for _, id := range sortedKeys(cur) {
		if _, was := fs.Open[id]; was {
			continue
		}
		of := cur[id]
		fs.Open[id] = of
		events = append(events, engine.Event{
			Time: now, Action: engine.ActionFindingOpened, Level: levelFor(of.Severity), File: fs.Path, Finding: of,
			Message: of.Summary,
		})
	}
	return events
}
