package notify

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const (
	exampleHost    = "ada-laptop"
	exampleVersion = "0.1.0"
	examplePin     = "/home/ada/.config/descriptorpin/pin.json"
	exampleTarget  = "/home/ada/.cursor/mcp.json"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

var mutation = &engine.OpenFinding{
	ID: "e204adae3b2ad21e", FindingID: "eee096735267ba96", Class: engine.Mutation, Severity: engine.High,
	Subject: "notes-local/read_note", Server: "notes-local", Tool: "read_note",
	Summary: "MUTATION notes-local/read_note: pinned 5d42752ac1f9 scanned 7a0616fba751",
	Details: []string{
		"  field description changed",
		"    pinned:  Return the Markdown text of one note from the local notebook, looked up by its id.",
		"    scanned: Return the Markdown text of one note from the local notebook, looked up by its id. Be...",
	},
	PinnedDigest: "5d42752ac1f9", ScannedDigest: "7a0616fba751", OpenedAt: "2026-11-30T10:00:05.250Z",
}

var poison = &engine.OpenFinding{
	ID: "59476826729c904e", FindingID: "89d3660d110e8dc1", Class: engine.Poison, Severity: engine.High,
	Subject: "notes-local/read_note", Server: "notes-local", Tool: "read_note", Rule: "concealment",
	Summary: "POISON notes-local/read_note: score 8, 3 signals",
	Details: []string{
		"  signal concealment (weight 3): instructs to hide, conceal, or not disclose",
		"  signal priority_override (weight 3): asserts precedence over previous or other instructions",
		"  signal imperative_opener (weight 2): sentence opens with imperative 'do not'",
	},
	Score: 8, Signals: []string{"concealment", "priority_override", "imperative_opener"},
	OpenedAt: "2026-11-30T10:00:05.250Z",
}

// exampleEvents is one realistic event per action, in the order of a
// service's day; docs/events.md shows the lines they produce.
func exampleEvents() []engine.Event {
	return []engine.Event{
		{
			Time: at("2026-11-30T10:00:00.123Z"), Action: engine.ActionDaemonStarted, Level: "info",
			Message: "descriptorpin 0.1.0 watching 3 targets (pin " + examplePin + ", rules default)",
		},
		{
			Time: at("2026-11-30T10:00:00.187Z"), Action: engine.ActionPinCreated, Level: "warn", File: examplePin,
			Message: "no pin found: trusted the current state of 1 file (4 tools, 3 servers) on first use; review it",
			Pin: &engine.PinChange{
				Added: []string{
					"calendar/list_events", "notes-local/list_notes", "notes-local/read_note", "repo-search/search",
					"server:calendar", "server:notes-local", "server:repo-search",
				},
				ApprovedBy: []string{"trust-on-first-use"},
				Tools:      4, Servers: 3,
			},
		},
		{
			Time: at("2026-11-30T10:00:05.250Z"), Action: engine.ActionFindingOpened, Level: "warn",
			File: exampleTarget, Message: mutation.Summary, Finding: mutation,
		},
		{
			Time: at("2026-11-30T10:03:17.045Z"), Action: engine.ActionScanFailed, Level: "error", File: exampleTarget,
			Message: "scan failed, keeping the last good result: /home/ada/.cursor/mcp.json:1:60: $.mcpServers.files.args[1]: invalid JSON: unterminated string",
			Error:   "/home/ada/.cursor/mcp.json:1:60: $.mcpServers.files.args[1]: invalid JSON: unterminated string",
		},
		{
			Time: at("2026-11-30T10:12:41.877Z"), Action: engine.ActionPinChanged, Level: "warn", File: examplePin,
			Message: "pin changed: 0 added, 0 removed, 1 re-approved, 1 accepted, 0 unaccepted by security@example.test",
			Pin: &engine.PinChange{
				Reapproved: []string{"notes-local/read_note"}, Accepted: []string{"89d3660d110e8dc1"},
				ApprovedBy: []string{"security@example.test"}, Tools: 4, Servers: 3, Acceptances: 1,
			},
		},
		{
			Time: at("2026-11-30T10:12:41.902Z"), Action: engine.ActionFindingResolved, Level: "info",
			File: exampleTarget, Message: "resolved: " + poison.Summary, Finding: poison,
		},
		{
			Time: at("2026-11-30T10:20:00.000Z"), Action: engine.ActionWatchDegraded, Level: "warn", File: "/home/ada/.cursor",
			Message: "watch degraded, relying on periodic rescans: adding watch: no space left on device",
			Error:   "adding watch: no space left on device",
		},
		{
			Time: at("2026-11-30T10:25:00.010Z"), Action: engine.ActionWatchRecovered, Level: "info", File: "/home/ada/.cursor",
			Message: "watch recovered",
		},
		{
			Time: at("2026-11-30T18:30:00.500Z"), Action: engine.ActionDaemonStopped, Level: "info",
			Message: "stopping: signal received",
		},
		// The service's own alerts (issue 12): findings of the classes
		// PIN, INPUT and SERVICE, so they reach desktop and webhooks.
		{
			Time: at("2026-12-01T09:00:00.040Z"), Action: engine.ActionFindingOpened, Level: "warn", File: examplePin,
			Message: pinMissing.Summary, Finding: pinMissing,
		},
		{
			Time: at("2026-12-01T09:14:02.311Z"), Action: engine.ActionFindingOpened, Level: "warn", File: exampleTarget,
			Message: parseFailed.Summary, Finding: parseFailed,
		},
		{
			Time: at("2026-12-01T11:40:13.002Z"), Action: engine.ActionFindingOpened, Level: "warn", File: "/home/ada/.local/state/descriptorpin/events.jsonl",
			Message: eventsUnwritable.Summary, Finding: eventsUnwritable,
		},
		{
			Time: at("2026-12-01T12:00:00.000Z"), Action: "state-recreated", Level: "warn", File: "/home/ada/.local/state/descriptorpin/state.json",
			Message: "the state file was deleted while the service ran; recreated it",
		},
	}
}

var pinMissing = &engine.OpenFinding{
	ID: "3f0c2a9e51b7d844", FindingID: "a61e0b7c2d9f3e15", Class: engine.ClassPin, Severity: engine.High,
	Subject: "~/.config/descriptorpin/pin.json", Rule: engine.RulePinMissing,
	Summary:  "PIN ~/.config/descriptorpin/pin.json is missing; scanning against the last good pin, nothing is re-trusted or resolved",
	Details:  []string{"  the pin /home/ada/.config/descriptorpin/pin.json is missing after the first start"},
	OpenedAt: "2026-12-01T09:00:00.040Z",
}

var parseFailed = &engine.OpenFinding{
	ID: "c4d1e8f20a6b9357", FindingID: "0e9b4c7a1f2d8365", Class: engine.ClassInput, Severity: engine.High,
	Subject: "~/.cursor/mcp.json", Rule: engine.RuleParseFailed,
	Summary:  "INPUT ~/.cursor/mcp.json: no longer parses; its last good result is kept, and what its client reads now is not scanned",
	Details:  []string{"  /home/ada/.cursor/mcp.json:1:60: $.mcpServers.files.args[1]: invalid JSON: unterminated string"},
	OpenedAt: "2026-12-01T09:14:02.311Z",
}

var eventsUnwritable = &engine.OpenFinding{
	ID: "7b2e9d4f0c1a6358", FindingID: "5d8a3c1e7f0b9246", Class: engine.ClassService, Severity: engine.High,
	Subject: "event log", Rule: engine.RuleEventsUnwritable,
	Summary:  "SERVICE event log: events cannot be written; alerts are kept and written when it works again",
	Details:  []string{"  writing the event log file: write /home/ada/.local/state/descriptorpin/events.jsonl: no space left on device"},
	OpenedAt: "2026-12-01T11:40:13.002Z",
}

func exampleOf(t *testing.T, action string) engine.Event {
	t.Helper()
	for _, ev := range exampleEvents() {
		if ev.Action == action {
			return ev
		}
	}
	t.Fatalf("no example event for %s", action)
	return engine.Event{}
}

func newLog(t *testing.T, opt EventLogOptions) *EventLog {
	t.Helper()
	l, err := NewEventLog(opt)
	if err != nil {
		t.Fatalf("NewEventLog: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// lines renders events with the example host and version, as JSON.
func lines(t *testing.T, evs ...engine.Event) []string {
	t.Helper()
	var buf bytes.Buffer
	l := newLog(t, EventLogOptions{Stderr: &buf, Level: "debug", Host: exampleHost, Version: exampleVersion})
	for _, ev := range evs {
		if err := l.Write(ev); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	out := strings.SplitAfter(buf.String(), "\n")
	return out[:len(out)-1] // each line keeps its newline; the last element is empty
}

func parse(t *testing.T, line string) map[string]any {
	t.Helper()
	var m map[string]any
	d := json.NewDecoder(strings.NewReader(line))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatalf("line does not parse as JSON: %v\n%s", err, line)
	}
	if d.More() {
		t.Fatalf("more than one JSON value in line:\n%s", line)
	}
	return m
}

// get follows a dotted path through nested objects.
func get(m map[string]any, path string) any {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

func strs(v any) []string {
	a, ok := v.([]any)
	if !ok {
		return nil
	}
	out := []string{}
	for _, x := range a {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

func noDottedKeys(t *testing.T, v any, where string) {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if strings.Contains(k, ".") {
				t.Errorf("dotted key %q at %s: want nested objects", k, where)
			}
			noDottedKeys(t, e, where+"/"+k)
		}
	case []any:
		for _, e := range x {
			noDottedKeys(t, e, where)
		}
	}
}

func TestEveryActionWritesOneNestedECSLine(t *testing.T) {
	tests := []struct {
		action   string
		kind     string
		category []string
		typ      []string
		outcome  string
		severity string // event.severity, "" = absent
		rule     string // rule.id, "" = absent
	}{
		{engine.ActionDaemonStarted, "event", []string{"process"}, []string{"start"}, "", "", ""},
		{engine.ActionDaemonStopped, "event", []string{"process"}, []string{"end"}, "", "", ""},
		{engine.ActionFindingOpened, "alert", []string{"configuration"}, []string{"change"}, "", "73", "MUTATION"},
		{engine.ActionFindingResolved, "event", []string{"configuration"}, []string{"info"}, "", "73", "POISON/concealment"},
		{engine.ActionScanFailed, "event", []string{"file"}, []string{"info"}, "failure", "", ""},
		{engine.ActionPinCreated, "event", []string{"configuration"}, []string{"creation"}, "", "", ""},
		{engine.ActionPinChanged, "event", []string{"configuration"}, []string{"change"}, "", "", ""},
		{engine.ActionWatchDegraded, "event", []string{"process"}, []string{"change"}, "failure", "", ""},
		{engine.ActionWatchRecovered, "event", []string{"process"}, []string{"change"}, "", "", ""},
		{"state-recreated", "event", []string{"file"}, []string{"creation"}, "", "", ""},
	}
	actions := map[string]bool{}
	for _, ev := range exampleEvents() {
		actions[ev.Action] = true
	}
	if len(tests) != len(actions) {
		t.Fatalf("%d cases for %d example actions", len(tests), len(actions))
	}
	for _, tt := range tests {
		t.Run(tt.action, func(t *testing.T) {
			ev := exampleOf(t, tt.action)
			dir := t.TempDir()
			path := filepath.Join(dir, "events.log")
			var stderr bytes.Buffer
			l := newLog(t, EventLogOptions{File: path, Stderr: &stderr, Host: exampleHost, Version: exampleVersion})
			if err := l.Write(ev); err != nil {
				t.Fatal(err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if n := bytes.Count(data, []byte("\n")); n != 1 || !bytes.HasSuffix(data, []byte("\n")) {
				t.Fatalf("file holds %d lines, want exactly one:\n%s", n, data)
			}
			if !bytes.Equal(data, stderr.Bytes()) {
				t.Errorf("stderr differs from the file:\nfile:   %s\nstderr: %s", data, stderr.Bytes())
			}
			m := parse(t, string(data))
			noDottedKeys(t, m, "")

			want := map[string]any{
				"@timestamp":    ev.Time.UTC().Format("2006-01-02T15:04:05.000Z"),
				"log.level":     ev.Level,
				"message":       ev.Message,
				"ecs.version":   "8.11.0",
				"event.kind":    tt.kind,
				"event.action":  tt.action,
				"event.dataset": "descriptorpin.events",
				"event.module":  "descriptorpin",
				"host.name":     exampleHost,
				"agent.name":    "descriptorpin",
				"agent.type":    "descriptorpin",
				"agent.version": exampleVersion,
			}
			for path, w := range want {
				if got := get(m, path); got != w {
					t.Errorf("%s = %v, want %v", path, got, w)
				}
			}
			if got := strs(get(m, "event.category")); !reflect.DeepEqual(got, tt.category) {
				t.Errorf("event.category = %q, want %q", got, tt.category)
			}
			if got := strs(get(m, "event.type")); !reflect.DeepEqual(got, tt.typ) {
				t.Errorf("event.type = %q, want %q", got, tt.typ)
			}
			if got, _ := get(m, "event.outcome").(string); got != tt.outcome {
				t.Errorf("event.outcome = %q, want %q", got, tt.outcome)
			}
			if got := fmt.Sprint(get(m, "event.severity")); got != tt.severity && !(got == "<nil>" && tt.severity == "") {
				t.Errorf("event.severity = %s, want %q", got, tt.severity)
			}
			if got, _ := get(m, "rule.id").(string); got != tt.rule {
				t.Errorf("rule.id = %q, want %q", got, tt.rule)
			}
			if ev.File != "" && get(m, "file.path") != ev.File {
				t.Errorf("file.path = %v, want %q", get(m, "file.path"), ev.File)
			}
			if ev.File == "" && get(m, "file") != nil {
				t.Errorf("file = %v, want it left out", get(m, "file"))
			}
			if ev.Error != "" && get(m, "error.message") != ev.Error {
				t.Errorf("error.message = %v, want %q", get(m, "error.message"), ev.Error)
			}
			if ev.Error == "" && get(m, "error") != nil {
				t.Errorf("error = %v, want it left out", get(m, "error"))
			}
			if f := ev.Finding; f != nil {
				for path, w := range map[string]any{
					"rule.category":                    string(f.Class),
					"descriptorpin.finding.id":         f.ID,
					"descriptorpin.finding.finding_id": f.FindingID,
					"descriptorpin.finding.class":      string(f.Class),
					"descriptorpin.finding.subject":    f.Subject,
					"descriptorpin.finding.server":     f.Server,
					"descriptorpin.finding.tool":       f.Tool,
					"descriptorpin.finding.severity":   f.Severity,
					"descriptorpin.finding.summary":    f.Summary,
					"descriptorpin.finding.opened_at":  f.OpenedAt,
					"descriptorpin.pinned.digest":      nilIfEmpty(f.PinnedDigest),
					"descriptorpin.scanned.digest":     nilIfEmpty(f.ScannedDigest),
					"descriptorpin.finding.score":      nilIfZero(f.Score),
				} {
					if w == nil {
						continue
					}
					if got := fmt.Sprint(get(m, path)); got != fmt.Sprint(w) {
						t.Errorf("%s = %s, want %v", path, got, w)
					}
				}
				if got := strs(get(m, "descriptorpin.finding.details")); len(got) != len(f.Details) || got[0] != strings.TrimSpace(f.Details[0]) {
					t.Errorf("details = %q, want %q trimmed", got, f.Details)
				}
				if got := strs(get(m, "descriptorpin.finding.signals")); len(f.Signals) > 0 && !reflect.DeepEqual(got, f.Signals) {
					t.Errorf("signals = %q, want %q", got, f.Signals)
				}
			} else if get(m, "rule") != nil || get(m, "descriptorpin.finding") != nil {
				t.Errorf("rule or finding fields in an event without a finding")
			}
			if p := ev.Pin; p != nil {
				if got := strs(get(m, "descriptorpin.pin.approved_by")); !reflect.DeepEqual(got, p.ApprovedBy) {
					t.Errorf("approved_by = %q, want %q", got, p.ApprovedBy)
				}
				if len(p.Added) > 0 && !reflect.DeepEqual(strs(get(m, "descriptorpin.pin.added")), p.Added) {
					t.Errorf("added = %v, want %q", get(m, "descriptorpin.pin.added"), p.Added)
				}
				for path, w := range map[string]int{"tools": p.Tools, "servers": p.Servers, "acceptances": p.Acceptances} {
					if got := fmt.Sprint(get(m, "descriptorpin.pin."+path)); got != fmt.Sprint(w) {
						t.Errorf("descriptorpin.pin.%s = %s, want %d", path, got, w)
					}
				}
			} else if get(m, "descriptorpin.pin") != nil {
				t.Errorf("pin fields in an event without a pin change")
			}
		})
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nilIfZero(n int) any {
	if n == 0 {
		return nil
	}
	return n
}

func TestFindingEventTypeFollowsTheClass(t *testing.T) {
	tests := []struct {
		action string
		class  engine.Class
		kind   string
		typ    string
	}{
		{engine.ActionFindingOpened, engine.Mutation, "alert", "change"},
		{engine.ActionFindingOpened, engine.Launch, "alert", "change"},
		{engine.ActionFindingOpened, engine.Added, "alert", "creation"},
		{engine.ActionFindingOpened, engine.Removed, "alert", "deletion"},
		{engine.ActionFindingOpened, engine.Shadow, "alert", "info"},
		{engine.ActionFindingOpened, engine.Poison, "alert", "info"},
		{engine.ActionFindingOpened, engine.Transport, "alert", "info"},
		{engine.ActionFindingResolved, engine.Mutation, "event", "info"},
		{engine.ActionFindingResolved, engine.Added, "event", "info"},
	}
	for _, tt := range tests {
		t.Run(tt.action+"/"+string(tt.class), func(t *testing.T) {
			f := *mutation
			f.Class = tt.class
			m := parse(t, lines(t, engine.Event{Time: at("2026-11-30T10:00:00Z"), Action: tt.action, Level: "info", Finding: &f})[0])
			if got := get(m, "event.kind"); got != tt.kind {
				t.Errorf("event.kind = %v, want %s", got, tt.kind)
			}
			if got := strs(get(m, "event.type")); !reflect.DeepEqual(got, []string{tt.typ}) {
				t.Errorf("event.type = %q, want [%s]", got, tt.typ)
			}
		})
	}
}

func TestEventSeverityFollowsTheFinding(t *testing.T) {
	for sev, want := range map[engine.Severity]string{engine.Low: "21", engine.Medium: "47", engine.High: "73", engine.Critical: "99", 0: "<nil>", 9: "<nil>"} {
		f := *mutation
		f.Severity = sev
		m := parse(t, lines(t, engine.Event{Time: at("2026-11-30T10:00:00Z"), Action: engine.ActionFindingOpened, Level: "warn", Finding: &f})[0])
		if got := fmt.Sprint(get(m, "event.severity")); got != want {
			t.Errorf("severity %q: event.severity = %s, want %s", sev, got, want)
		}
	}
}

func TestTimestampIsTheEventsInUTCMilliseconds(t *testing.T) {
	loc := time.FixedZone("UTC+5:30", 5*3600+1800)
	ev := engine.Event{Time: time.Date(2026, 11, 30, 15, 30, 0, 123456789, loc), Action: engine.ActionDaemonStarted, Level: "info"}
	m := parse(t, lines(t, ev)[0])
	if got := get(m, "@timestamp"); got != "2026-11-30T10:00:00.123Z" {
		t.Errorf("@timestamp = %v, want 2026-11-30T10:00:00.123Z", got)
	}
}

func TestOutputIsDeterministic(t *testing.T) {
	ev := exampleOf(t, engine.ActionFindingOpened)
	a := lines(t, ev, ev)
	b := lines(t, ev)
	if a[0] != a[1] || a[0] != b[0] {
		t.Fatalf("the same event gave different lines:\n%s%s%s", a[0], a[1], b[0])
	}
	const want = `{"@timestamp":"2026-11-30T10:00:05.250Z","log":{"level":"warn"},"message":"MUTATION notes-local/read_note: pinned 5d42752ac1f9 scanned 7a0616fba751","ecs":{"version":"8.11.0"},"event":{"kind":"alert","category":["configuration"],"type":["change"],"action":"finding-opened","severity":73,"dataset":"descriptorpin.events","module":"descriptorpin"},"rule":{"id":"MUTATION","name":"MUTATION","category":"MUTATION"},"file":{"path":"/home/ada/.cursor/mcp.json"},"host":{"name":"ada-laptop"},"agent":{"name":"descriptorpin","type":"descriptorpin","version":"0.1.0"},"descriptorpin":{"finding":{"id":"e204adae3b2ad21e","finding_id":"eee096735267ba96","class":"MUTATION","subject":"notes-local/read_note","server":"notes-local","tool":"read_note","severity":"high","summary":"MUTATION notes-local/read_note: pinned 5d42752ac1f9 scanned 7a0616fba751","details":["field description changed","pinned:  Return the Markdown text of one note from the local notebook, looked up by its id.","scanned: Return the Markdown text of one note from the local notebook, looked up by its id. Be..."],"opened_at":"2026-11-30T10:00:05.250Z"},"pinned":{"digest":"5d42752ac1f9"},"scanned":{"digest":"7a0616fba751"}}}` + "\n"
	if a[0] != want {
		t.Errorf("line:\n%s\nwant:\n%s", a[0], want)
	}
}

// TestExampleLines renders one example line per action. Run it with -v to
// see them; -update rewrites testdata/examples.jsonl. docs/events.md must
// show each line as it is.
func TestExampleLines(t *testing.T) {
	got := strings.Join(lines(t, exampleEvents()...), "")
	for _, line := range strings.SplitAfter(strings.TrimSuffix(got, "\n"), "\n") {
		t.Log(strings.TrimSuffix(line, "\n"))
	}
	golden := filepath.Join("testdata", "examples.jsonl")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("example lines differ from %s (run go test -update):\ngot:\n%s\nwant:\n%s", golden, got, want)
	}
	docShows(t, got)
}

// docShows checks that docs/events.md shows each line of out as it is.
func docShows(t *testing.T, out string) {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "events.md"))
	if err != nil {
		t.Fatalf("reading the event documentation: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !bytes.Contains(doc, []byte(line+"\n")) {
			t.Errorf("docs/events.md does not show the example line:\n%s", line)
		}
	}
}

func TestConsoleWritesTextToStderrAndJSONToTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.log")
	var stderr bytes.Buffer
	l := newLog(t, EventLogOptions{File: path, Stderr: &stderr, Console: true, Host: exampleHost, Version: exampleVersion})
	for _, a := range []string{engine.ActionFindingOpened, engine.ActionScanFailed} {
		if err := l.Write(exampleOf(t, a)); err != nil {
			t.Fatal(err)
		}
	}
	want := "2026-11-30T10:00:05.250Z WRN MUTATION notes-local/read_note: pinned 5d42752ac1f9 scanned 7a0616fba751" +
		" action=finding-opened rule=MUTATION severity=high file=/home/ada/.cursor/mcp.json finding=eee096735267ba96\n" +
		"2026-11-30T10:03:17.045Z ERR scan failed, keeping the last good result: /home/ada/.cursor/mcp.json:1:60: $.mcpServers.files.args[1]: invalid JSON: unterminated string" +
		" action=scan-failed file=/home/ada/.cursor/mcp.json err=\"/home/ada/.cursor/mcp.json:1:60: $.mcpServers.files.args[1]: invalid JSON: unterminated string\"\n"
	if stderr.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
	}
	docShows(t, want)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ls := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(ls) != 2 {
		t.Fatalf("file holds %d lines, want 2", len(ls))
	}
	for _, line := range ls {
		parse(t, line)
	}
}

func TestLevelFiltersEvents(t *testing.T) {
	evs := []engine.Event{
		{Time: at("2026-11-30T10:00:00Z"), Action: engine.ActionWatchRecovered, Level: "info"},
		{Time: at("2026-11-30T10:00:01Z"), Action: engine.ActionWatchDegraded, Level: "warn"},
		{Time: at("2026-11-30T10:00:02Z"), Action: engine.ActionScanFailed, Level: "error"},
		{Time: at("2026-11-30T10:00:03Z"), Action: engine.ActionDaemonStarted, Level: ""}, // info
	}
	for _, tt := range []struct {
		level string
		want  []string
	}{
		{"", []string{"watch-recovered", "watch-degraded", "scan-failed", "daemon-started"}},
		{"debug", []string{"watch-recovered", "watch-degraded", "scan-failed", "daemon-started"}},
		{"info", []string{"watch-recovered", "watch-degraded", "scan-failed", "daemon-started"}},
		{"warn", []string{"watch-degraded", "scan-failed"}},
		{"error", []string{"scan-failed"}},
	} {
		t.Run("level="+tt.level, func(t *testing.T) {
			var buf bytes.Buffer
			l := newLog(t, EventLogOptions{Stderr: &buf, Level: tt.level})
			for _, ev := range evs {
				if err := l.Write(ev); err != nil {
					t.Fatal(err)
				}
			}
			got := []string{}
			for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
				if line != "" {
					got = append(got, get(parse(t, line), "event.action").(string))
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("written %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNewEventLogRejectsBadOptions(t *testing.T) {
	for _, opt := range []EventLogOptions{
		{Level: "verbose"},
		{Level: "trace"},
		{MaxSizeMB: -1},
		{MaxBackups: -1},
	} {
		if _, err := NewEventLog(opt); err == nil {
			t.Errorf("NewEventLog(%+v) = nil error", opt)
		}
	}
	// A file that cannot be created is an error at start, not at the first event.
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewEventLog(EventLogOptions{File: filepath.Join(blocker, "events.log")}); err == nil {
		t.Error("NewEventLog under a regular file = nil error")
	}
}

func TestInvisibleCharactersAreEscaped(t *testing.T) {
	const evil = "ok\u202etxt.exe\x1b[2J\u200b\U000E0041\r\nend\xff"
	const shown = `ok\u202etxt.exe\x1b[2J\u200b\U000e0041\x0d\x0aend\xff`
	f := *mutation
	f.Summary, f.Subject, f.Details, f.Signals = evil, evil, []string{evil}, []string{evil}
	ev := engine.Event{
		Time: at("2026-11-30T10:00:00Z"), Action: engine.ActionFindingOpened, Level: "warn",
		Message: evil, File: evil, Error: evil, Finding: &f,
		Pin: &engine.PinChange{Added: []string{evil}, ApprovedBy: []string{evil}},
	}
	path := filepath.Join(t.TempDir(), "events.log")
	var console bytes.Buffer
	l := newLog(t, EventLogOptions{File: path, Stderr: &console, Console: true})
	if err := l.Write(ev); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string][]byte{"file": data, "console": console.Bytes()} {
		for _, raw := range []string{"\u202e", "\x1b", "\u200b", "\U000E0041", "\r", "\xff"} {
			if bytes.Contains(out, []byte(raw)) {
				t.Errorf("%s holds the raw character %q:\n%q", name, raw, out)
			}
		}
		if bytes.Count(out, []byte("\n")) != 1 {
			t.Errorf("%s is not one line:\n%q", name, out)
		}
	}
	m := parse(t, string(data))
	for _, path := range []string{"message", "file.path", "error.message", "descriptorpin.finding.summary", "descriptorpin.finding.subject"} {
		if got := get(m, path); got != shown {
			t.Errorf("%s = %q, want %q", path, got, shown)
		}
	}
	for _, path := range []string{"descriptorpin.finding.details", "descriptorpin.finding.signals", "descriptorpin.pin.added", "descriptorpin.pin.approved_by"} {
		if got := strs(get(m, path)); !reflect.DeepEqual(got, []string{shown}) {
			t.Errorf("%s = %q, want [%q]", path, got, shown)
		}
	}
	if !strings.Contains(console.String(), shown) {
		t.Errorf("console line does not show the escapes:\n%s", console.String())
	}
}

func TestEscapeLeavesSanitisedAndPrintableTextAlone(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "",
		"plain text":                "plain text",
		`already \u202e escaped`:    `already \u202e escaped`,
		"日本語 ✓ 🙂 émoji":             "日本語 ✓ 🙂 émoji",
		"tab\there":                 `tab\x09here`,
		"del\x7f c1\u0085":          `del\x7f c1\u0085`,
		"bom\ufeff sep\u2028":       `bom\ufeff sep\u2028`,
		"filler\u3164 shy\u00ad":    `filler\u3164 shy\u00ad`,
		"replacement\ufffd bad\xc3": `replacement\ufffd bad\xc3`,
	} {
		if got := sanitize.Text(in); got != want {
			t.Errorf("escape(%q) = %q, want %q", in, got, want)
		}
		if got := sanitize.Text(sanitize.Text(in)); got != sanitize.Text(in) {
			t.Errorf("escape is not idempotent on %q: %q", in, got)
		}
	}
}

func TestNothingSecretIsAdded(t *testing.T) {
	const (
		webhookSecret = "whsec_5fQk2N8vXr0aLzT3"
		webhookURL    = "https://hooks.example.test/services/T000/B000/XXXXSECRET"
		token         = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	)
	t.Setenv("DESCRIPTORPIN_WEBHOOK_SECRET", webhookSecret)
	t.Setenv("DESCRIPTORPIN_WEBHOOK_URL", webhookURL)
	t.Setenv("GITHUB_TOKEN", token)
	path := filepath.Join(t.TempDir(), "events.log")
	var stderr bytes.Buffer
	l := newLog(t, EventLogOptions{File: path, Stderr: &stderr, Host: exampleHost, Version: exampleVersion})
	for _, ev := range exampleEvents() {
		if err := l.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{webhookSecret, webhookURL, token, "whsec_", "hooks.example.test", "ghp_", "Bearer", "Authorization"} {
		if bytes.Contains(data, []byte(s)) || bytes.Contains(stderr.Bytes(), []byte(s)) {
			t.Errorf("the log holds %q, which no event carried", s)
		}
	}
	// The sink neither adds nor removes text: what an event carries is
	// the engine's to redact.
	ev := exampleOf(t, engine.ActionDaemonStarted)
	ev.Message = "carried " + webhookSecret
	if line := lines(t, ev)[0]; !strings.Contains(line, webhookSecret) {
		t.Errorf("the line lost text the event carried:\n%s", line)
	}
}

func TestFileAndDirectoryAreOwnerOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix file modes on Windows")
	}
	dir := filepath.Join(t.TempDir(), "state", "logs")
	path := filepath.Join(dir, "events.log")
	l := newLog(t, EventLogOptions{File: path})
	assertMode(t, dir, 0o700)
	assertMode(t, path, 0o600)
	if err := l.Write(exampleOf(t, engine.ActionDaemonStarted)); err != nil {
		t.Fatal(err)
	}
	assertMode(t, path, 0o600)
}

func TestExistingFileAndBackupsAreTightened(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix file modes on Windows")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "events.log")
	backup := filepath.Join(dir, "events-2026-11-29T08-00-00.000.log")
	gzBackup := filepath.Join(dir, "events-2026-11-28T08-00-00.000.log.gz")
	other := filepath.Join(dir, "events-notes.log")
	for _, p := range []string{path, backup, gzBackup, other} {
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o644); err != nil { // past the umask
			t.Fatal(err)
		}
	}
	l := newLog(t, EventLogOptions{File: path})
	assertMode(t, path, 0o600)
	assertMode(t, backup, 0o600)
	assertMode(t, gzBackup, 0o600)
	assertMode(t, other, 0o644) // not the log's: left alone
	if err := l.Write(exampleOf(t, engine.ActionDaemonStarted)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "{}\n{") {
		t.Errorf("the existing file was not appended to:\n%s", data)
	}
}

func TestRotationKeepsModeAndCapsBackups(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events.log")
	const maxBackups = 2
	l := newLog(t, EventLogOptions{File: path, MaxSizeMB: 1, MaxBackups: maxBackups})
	ev := exampleOf(t, engine.ActionFindingOpened)
	ev.Message = strings.Repeat("m", 4000)
	written := 0
	for written < 3*1024*1024+512*1024 { // three rotations and a half
		if err := l.Write(ev); err != nil {
			t.Fatal(err)
		}
		written += 4600 // a line is a little longer than the message
	}
	// Lumberjack removes surplus backups in the background.
	var backups []string
	deadline := time.Now().Add(10 * time.Second)
	for {
		backups = nil
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range entries {
			if de.Name() != "events.log" {
				backups = append(backups, de.Name())
			}
		}
		if len(backups) <= maxBackups || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(backups) != maxBackups {
		t.Fatalf("backups %q: want %d", backups, maxBackups)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 1024*1024 {
		t.Errorf("current file is %d bytes, past the 1 MB rotation size", st.Size())
	}
	if runtime.GOOS == "windows" {
		return
	}
	assertMode(t, path, 0o600)
	for _, b := range backups {
		assertMode(t, filepath.Join(dir, b), 0o600)
	}
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != want {
		t.Errorf("%s: mode %o, want %o", filepath.Base(path), got, want)
	}
}

func TestConcurrentWritesStayWholeLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.log")
	// No lock of its own: the EventLog's lock serialises the writes, and
	// the race detector would report it otherwise.
	var stderr bytes.Buffer
	l := newLog(t, EventLogOptions{File: path, Stderr: &stderr})
	evs := exampleEvents()
	const workers, each = 8, 100
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				l.Send(evs[(w+i)%len(evs)])
			}
		})
	}
	wg.Wait()
	if n, err := l.Errors(); n != 0 {
		t.Fatalf("%d send errors, last %v", n, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"file": string(data), "stderr": stderr.String()} {
		ls := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(ls) != workers*each {
			t.Fatalf("%s: %d lines, want %d", name, len(ls), workers*each)
		}
		for _, line := range ls {
			parse(t, line)
		}
	}
}

func TestSendCountsFailuresAndWriteReportsThem(t *testing.T) {
	l := newLog(t, EventLogOptions{Stderr: failingWriter{}})
	ev := exampleOf(t, engine.ActionDaemonStarted)
	if err := l.Write(ev); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("Write = %v, want the writer's error", err)
	}
	l.Send(ev)
	l.Send(ev)
	if n, last := l.Errors(); n != 2 || last == nil {
		t.Errorf("Errors() = %d, %v; want 2 and the last error", n, last)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestWriteAfterCloseFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.log")
	l := newLog(t, EventLogOptions{File: path})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	if err := l.Write(exampleOf(t, engine.ActionDaemonStopped)); !errors.Is(err, ErrClosed) {
		t.Errorf("Write after Close = %v, want ErrClosed", err)
	}
	if data, _ := os.ReadFile(path); len(data) != 0 {
		t.Errorf("the file was written after Close:\n%s", data)
	}
}

func TestUnknownActionIsAPlainEvent(t *testing.T) {
	m := parse(t, lines(t, engine.Event{Time: at("2026-11-30T10:00:00Z"), Action: "future-thing", Level: "info", Message: "x"})[0])
	if get(m, "event.kind") != "event" || get(m, "event.category") != nil || get(m, "event.type") != nil || get(m, "event.action") != "future-thing" {
		t.Errorf("unknown action written as %v", m["event"])
	}
}

type recordingSink struct {
	name string
	got  *[]string
}

func (r recordingSink) Name() string         { return r.name }
func (r recordingSink) Send(ev engine.Event) { *r.got = append(*r.got, r.name+":"+ev.Action) }

func TestMultiSendsToEverySinkInOrder(t *testing.T) {
	var got []string
	m := Multi{recordingSink{"a", &got}, nil, recordingSink{"b", &got}}
	var s Sink = m
	s.Send(engine.Event{Action: engine.ActionDaemonStarted})
	s.Send(engine.Event{Action: engine.ActionDaemonStopped})
	want := []string{"a:daemon-started", "b:daemon-started", "a:daemon-stopped", "b:daemon-stopped"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if m.Name() != "multi" {
		t.Errorf("Name() = %q", m.Name())
	}
	var _ Sink = (*EventLog)(nil)
	if (&EventLog{}).Name() != "eventlog" {
		t.Error("EventLog.Name() is not eventlog")
	}
}

func TestWatchEventsMarkTheirPathADirectory(t *testing.T) {
	for _, ev := range exampleEvents() {
		if ev.File == "" {
			continue
		}
		m := parse(t, lines(t, ev)[0])
		want := any(nil)
		if ev.Action == engine.ActionWatchDegraded || ev.Action == engine.ActionWatchRecovered {
			want = "dir"
		}
		if got := get(m, "file.type"); got != want {
			t.Errorf("%s: file.type = %v, want %v", ev.Action, got, want)
		}
	}
}

// Issue 12: state-recreated is categorised (ECS 8.11: file / creation).
func TestStateRecreatedIsCategorised(t *testing.T) {
	m := parse(t, lines(t, engine.Event{Time: at("2026-12-01T12:00:00Z"), Action: engine.ActionStateRecreated, Level: "warn",
		File: "/home/ada/.local/state/descriptorpin/state.json", Message: "recreated"})[0])
	if got := strs(get(m, "event.category")); !reflect.DeepEqual(got, []string{"file"}) {
		t.Errorf("event.category = %q, want [file]", got)
	}
	if got := strs(get(m, "event.type")); !reflect.DeepEqual(got, []string{"creation"}) {
		t.Errorf("event.type = %q, want [creation]", got)
	}
}
