package pin

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
)

func srcInv(t *testing.T, doc string) *engine.Inventory {
	t.Helper()
	inv, err := inventory.Parse("inv.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

const (
	invA = `{"servers":[{"name":"a1","transport":"http","url":"https://a.test/mcp","tools":[{"name":"t","description":"d","input_schema":{}}]},
	                 {"name":"a2","transport":"http","url":"https://a2.test/mcp","tools":[{"name":"u","description":"d","input_schema":{}}]}]}`
	invB = `{"servers":[{"name":"b1","transport":"http","url":"https://b.test/mcp","tools":[{"name":"t","description":"d","input_schema":{}}]}]}`
)

var srcAp = Approval{By: "a", Note: "n", At: "2026-01-01T00:00:00Z"}

// twoFilePin is the pin of files ~/a.json and ~/b.json, merged as
// `pin a.json b.json` does.
func twoFilePin(t *testing.T) *Pin {
	t.Helper()
	p, err := BuildWith(srcInv(t, invA), Format2, srcAp, Options{Source: "~/a.json"})
	if err != nil {
		t.Fatal(err)
	}
	q, err := BuildWith(srcInv(t, invB), Format2, srcAp, Options{Source: "~/b.json"})
	if err != nil {
		t.Fatal(err)
	}
	p.Merge(q)
	return p
}

// Sources survive Marshal and Load, sorted, and a pin without them
// marshals as before (no "sources" key).
func TestSourcesRoundTrip(t *testing.T) {
	p := twoFilePin(t)
	doc := p.Marshal()
	if !bytes.Contains(doc, []byte(`"sources": [`)) {
		t.Fatalf("no sources in\n%s", doc)
	}
	q, err := Load("pin.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Sources(); !slices.Equal(got, []string{"~/a.json", "~/b.json"}) {
		t.Errorf("Sources = %v", got)
	}
	if !bytes.Equal(q.Marshal(), doc) {
		t.Error("Marshal(Load(doc)) != doc")
	}
	plain, _ := Build(srcInv(t, invA), Format2, srcAp)
	if bytes.Contains(plain.Marshal(), []byte("sources")) {
		t.Error("a pin without sources writes a sources key")
	}
	bad := strings.Replace(string(doc), `"~/b.json"`, `""`, 1)
	if _, err := Load("pin.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "sources") {
		t.Errorf("empty source loaded: %v", err)
	}
}

func keys(p *Pin) []string {
	var out []string
	for _, t := range p.Tools {
		out = append(out, t.Key)
	}
	for _, s := range p.Servers {
		out = append(out, s.Identity())
	}
	return out
}

// A file owns the entries recorded from it and the servers it declares;
// another file's entries are not in its view. A pin without sources is
// whole for the CLI and per-declaration for the service.
func TestOwned(t *testing.T) {
	p := twoFilePin(t)
	a := p.Owned(Claim{Sources: []string{"~/a.json", "/home/u/a.json"}, Whole: true})
	if got := keys(a); !slices.Equal(got, []string{"a1/t", "a2/u", "server:a1", "server:a2"}) {
		t.Errorf("a.json owns %v", got)
	}
	// A file not in the pin owns what it declares.
	c := p.Owned(Claim{Sources: []string{"~/c.json"}, Declared: []string{"b1"}, Whole: true})
	if got := keys(c); !slices.Equal(got, []string{"b1/t", "server:b1"}) {
		t.Errorf("c.json owns %v", got)
	}
	// A client config's view has no tools.
	if got := keys(p.Owned(Claim{Sources: []string{"~/b.json"}, LaunchOnly: true})); !slices.Equal(got, []string{"server:b1"}) {
		t.Errorf("launch-only view %v", got)
	}
	legacy, _ := Build(srcInv(t, invA), Format2, srcAp)
	if got := len(legacy.Owned(Claim{Whole: true}).Tools); got != 2 {
		t.Errorf("CLI view of a legacy pin has %d tools, want 2 (whole)", got)
	}
	if got := keys(legacy.Owned(Claim{Declared: []string{"a1"}, Before: []string{"a2"}})); len(got) != 4 {
		t.Errorf("service view of a legacy pin: %v", got)
	}
	if got := keys(legacy.Owned(Claim{Declared: []string{"a1"}})); !slices.Equal(got, []string{"a1/t", "server:a1"}) {
		t.Errorf("service view of a legacy pin without before: %v", got)
	}
}

// Approving --all through one file's view changes that file's entries
// only: b.json's entries stay byte for byte, and a server a.json dropped
// is removed.
func TestApplyKeepsOtherFiles(t *testing.T) {
	p := twoFilePin(t)
	before := p.Marshal()
	claim := Claim{Sources: []string{"~/a.json"}}
	view := p.Owned(claim)
	start := *view
	cur := srcInv(t, `{"servers":[{"name":"a1","transport":"http","url":"https://a.test/mcp","tools":[{"name":"t","description":"changed","input_schema":{}}]}]}`)
	done, err := ApproveWith(view, cur, nil, true, false, Approval{By: "b", Note: "m", At: "2026-02-01T00:00:00Z"}, Options{Source: "~/a.json"})
	if err != nil {
		t.Fatal(err)
	}
	p.Apply(&start, view)
	for _, d := range done {
		if strings.Contains(d, "b1") {
			t.Errorf("approve touched b.json's server: %q", d)
		}
	}
	if got := keys(p); !slices.Equal(got, []string{"a1/t", "b1/t", "server:a1", "server:b1"}) {
		t.Errorf("after approve: %v", got)
	}
	if p.Tool("a1/t").By != "b" || p.Tool("b1/t").By != "a" {
		t.Error("wrong entries re-approved")
	}
	old, _ := Load("pin.json", before)
	if string(entryBytes(old, "b1")) != string(entryBytes(p, "b1")) {
		t.Error("b.json's entries changed")
	}
}

func entryBytes(p *Pin, server string) []byte {
	return p.Owned(Claim{Declared: []string{server}}).Marshal()
}

// A capture's first tool list is pinned once, for a server whose launch
// config is pinned; the second capture's differences are not.
func TestFirstSight(t *testing.T) {
	cfg, _ := BuildWith(&engine.Inventory{Servers: []*engine.Server{{Name: "a1", Transport: "http", URL: "https://a.test/mcp"}}}, Format2, srcAp, Options{Source: "~/cfg.json"})
	inv := srcInv(t, invA) // a1 (pinned launch) and a2 (not)
	got, names := FirstSight(cfg, inv, "~/cap.json", srcAp)
	if !slices.Equal(names, []string{"a1"}) || got.Tool("a1/t") == nil || got.Tool("a2/u") != nil {
		t.Fatalf("first sight pinned %v: %v", names, keys(got))
	}
	if len(cfg.Tools) != 0 {
		t.Error("FirstSight changed its input")
	}
	if !slices.Equal(got.Server("a1").Sources, []string{"~/cap.json", "~/cfg.json"}) {
		t.Errorf("sources %v", got.Server("a1").Sources)
	}
	if _, again := FirstSight(got, inv, "~/cap.json", srcAp); len(again) != 0 {
		t.Errorf("second sight pinned %v", again)
	}
}

// A pin over the inventory cap but under the pin cap loads.
func TestPinCap(t *testing.T) {
	if MaxBytes <= engine.MaxFileBytes {
		t.Fatalf("pin cap %d is not above the inventory cap", MaxBytes)
	}
	big := make([]byte, MaxBytes+1)
	if _, err := Load("pin.json", big); err == nil || !strings.Contains(err.Error(), "pin cap") {
		t.Errorf("oversized pin: %v", err)
	}
}
