package monitor

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/report"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/engine/scan"
)

func scanInv(t *testing.T, inv string, pn *pin.Pin) *scan.Report {
	t.Helper()
	i, err := inventory.Parse("inv.json", []byte(inv))
	if err != nil {
		t.Fatal(err)
	}
	return scan.Scan(i, pn, scan.ScanOptions{})
}

const base = `{"servers":[{"name":"s","transport":"http","tools":[{"name":"t","description":"Adds numbers."}]}]}`
const changed = `{"servers":[{"name":"s","transport":"http","tools":[{"name":"t","description":"Adds numbers, and more."}]}]}`

func pinOf(t *testing.T, inv string) *pin.Pin {
	i, _ := inventory.Parse("inv.json", []byte(inv))
	p, err := pin.Build(i, pin.Format2, pin.Approval{By: "a", At: "2026-01-01T00:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func actions(evs []engine.Event) string {
	var out []string
	for _, e := range evs {
		s := e.Action
		if e.Finding != nil {
			s += " " + string(e.Finding.Class)
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

func TestOpenOnceResolveOnce(t *testing.T) {
	pn := pinOf(t, base)
	st := NewState()
	fs := st.File("/home/u/inv.json", "~/inv.json", "inventory")
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if got := actions(ApplyScan(fs, scanInv(t, base, pn), "h1", []string{"s"}, now)); got != "" {
		t.Fatalf("clean scan gave %s", got)
	}
	if got := actions(ApplyScan(fs, scanInv(t, changed, pn), "h2", []string{"s"}, now)); got != "finding-opened MUTATION" {
		t.Fatalf("got %s", got)
	}
	if got := actions(ApplyScan(fs, scanInv(t, changed, pn), "h2", []string{"s"}, now)); got != "" {
		t.Fatalf("an open finding is announced again: %s", got)
	}
	if fs.Result != "findings" {
		t.Fatalf("result %s", fs.Result)
	}
	if got := actions(ApplyScan(fs, scanInv(t, base, pn), "h1", []string{"s"}, now)); got != "finding-resolved MUTATION" {
		t.Fatalf("got %s", got)
	}
}

func TestFailureKeepsFindingsAndIsAnnouncedOnce(t *testing.T) {
	pn := pinOf(t, base)
	st := NewState()
	fs := st.File("/p", "/p", "inventory")
	now := time.Now()
	ApplyScan(fs, scanInv(t, changed, pn), "h", []string{"s"}, now)
	err := errors.New("inv.json:1:5: invalid JSON: unexpected end of input")
	if got := actions(ApplyFailure(fs, err, now)); got != "scan-failed" {
		t.Fatalf("got %s", got)
	}
	if got := actions(ApplyFailure(fs, err, now)); got != "" {
		t.Fatalf("the same failure is announced again: %s", got)
	}
	if len(fs.Open) != 1 || fs.Result != "failed" {
		t.Fatalf("open %d result %s", len(fs.Open), fs.Result)
	}
	if got := actions(ApplyFailure(fs, errors.New("other"), now)); got != "scan-failed" {
		t.Fatalf("a new failure must be announced: %s", got)
	}
	if got := actions(ApplyScan(fs, scanInv(t, changed, pn), "h", []string{"s"}, now)); got != "" {
		t.Fatalf("recovery with the same findings: %s", got)
	}
}

func TestIDsDependOnIdentityNotHost(t *testing.T) {
	pn := pinOf(t, base)
	r := scanInv(t, changed, pn)
	a := Open(Identity("/home/alice/.cursor/mcp.json", "/home/alice"), &r.Findings[0], r.Rules, time.Now())
	b := Open(Identity("/home/bob/.cursor/mcp.json", "/home/bob"), &r.Findings[0], r.Rules, time.Now())
	if a.ID != b.ID {
		t.Fatal("finding ids differ between hosts")
	}
	if Identity(`C:\Users\bob\x.json`, `C:\Users\bob`) != "~/x.json" {
		t.Fatal("windows identity")
	}
}

func TestDiffPins(t *testing.T) {
	p1 := pinOf(t, base)
	p2 := pinOf(t, changed)
	p2.Tools[0].By = "bob"
	c := DiffPins(p1, p2)
	if len(c.Reapproved) != 1 || c.Reapproved[0] != "s/t" || len(c.ApprovedBy) != 1 || c.ApprovedBy[0] != "bob" {
		t.Fatalf("%+v", c)
	}
	if !pin.Empty(DiffPins(p1, p1)) {
		t.Fatal("same pin must be empty")
	}
}

// Issue 11: an open finding's severity is engine.Severity, and state.json
// keeps the word ("high"), exactly as before.
func TestOpenFindingSeverityKeepsItsTextForm(t *testing.T) {
	of := engine.OpenFinding{ID: "a", FindingID: "b", Class: engine.Mutation, Severity: engine.High, Subject: "s/t", Summary: "x", OpenedAt: "2026-01-01T00:00:00.000Z"}
	b, err := json.Marshal(of)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"severity":"high"`) {
		t.Errorf("marshalled %s, want \"severity\":\"high\"", b)
	}
	var back engine.OpenFinding
	if err := json.Unmarshal(b, &back); err != nil || back.Severity != engine.High {
		t.Errorf("round trip: %v, %v", back.Severity, err)
	}
	if err := json.Unmarshal([]byte(`{"severity":"severe"}`), &back); err == nil {
		t.Error("an unknown severity word was accepted")
	}
	st := NewState()
	st.File("/f", "f", "inventory").Open["a"] = &engine.OpenFinding{ID: "a"}
	if st.Check() == nil {
		t.Error("Check accepted an open finding without a severity (it could not be written back)")
	}
	st.File("/f", "f", "inventory").Open["a"] = &of
	if err := st.Check(); err != nil {
		t.Error(err)
	}
}

// Issue 12: status counts the scheduled capture's BAIT-AND-SWITCH findings
// (kept in their own probe state) with the client config they are about.
func TestStatusCountsBaitAndSwitch(t *testing.T) {
	st := NewState()
	f := st.File("/c.json", "c.json", "client-config")
	f.Result = "clean"
	probe := &FileState{Path: "/c.json", Open: map[string]*engine.OpenFinding{
		"b": {ID: "b", Class: engine.BaitAndSwitch, Severity: engine.High, Subject: "s", Summary: "BAIT-AND-SWITCH s"}}}
	v := Status("state.json", st, probe)
	if len(v.Targets) != 1 || v.Targets[0].Open != 1 || v.Targets[0].Result != "findings" {
		t.Errorf("targets %+v, want the bait finding counted", v.Targets)
	}
	if len(v.Open) != 1 || v.Open[0].Class != engine.BaitAndSwitch {
		t.Errorf("open %+v, want the bait finding", v.Open)
	}
}

// Issue 11: Open carries descriptor text as found (the writers escape it
// once), and escaping it gives exactly the report's escaped lines, so
// every output stays byte-identical.
func TestOpenCarriesTextAsFound(t *testing.T) {
	hostile := `{"servers":[{"name":"s\u202e","transport":"http","tools":[{"name":"t","description":"Adds \u001b[31m numbers \u202eC:\\x1b"}]}]}`
	r := scanInv(t, hostile, pinOf(t, `{"servers":[{"name":"s\u202e","transport":"http","tools":[{"name":"t","description":"Adds numbers."}]}]}`))
	var f *engine.Finding
	for i := range r.Findings {
		if r.Findings[i].Class == engine.Mutation {
			f = &r.Findings[i]
		}
	}
	if f == nil {
		t.Fatalf("no MUTATION in %+v", r.Findings)
	}
	of := Open("inv.json", f, r.Rules, time.Now())
	raw := strings.Join(append([]string{of.Summary}, of.Details...), "\n")
	if !strings.Contains(raw, "\x1b[31m") || !strings.Contains(raw, "\u202e") || of.Server != "s\u202e" {
		t.Errorf("open finding escaped already: %q (server %q)", raw, of.Server)
	}
	want := report.FindingLines(f, r.Rules, report.TextOptions{})
	got := []string{sanitize.Text(of.Summary)}
	for _, d := range of.Details {
		got = append(got, sanitize.Text(d))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("escaped once:\n%s\nthe report's lines:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(strings.Join(got, "\n"), `\\x1b`) {
		t.Error("the literal backslash was doubled")
	}
}
