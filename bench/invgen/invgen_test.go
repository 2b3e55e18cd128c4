package invgen_test

import (
	"bytes"
	"testing"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/scan"
)

func generate(t *testing.T, o invgen.Options) []byte {
	t.Helper()
	data, err := invgen.Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestSameOptionsGiveSameBytes(t *testing.T) {
	o := invgen.Options{Servers: 6, Tools: 7, Seed: invgen.DefaultSeed, Mutate: 5}
	if !bytes.Equal(generate(t, o), generate(t, o)) {
		t.Fatal("two runs with the same options differ")
	}
	o.Seed++
	if bytes.Equal(generate(t, o), generate(t, invgen.Options{Servers: 6, Tools: 7, Seed: invgen.DefaultSeed, Mutate: 5})) {
		t.Fatal("a different seed gave the same inventory")
	}
}

func TestCompactAndIndentedAreTheSameInventory(t *testing.T) {
	o := invgen.Options{Servers: 3, Tools: 4, Seed: 1}
	compact := generate(t, o)
	o.Indent = true
	indented := generate(t, o)
	if bytes.Count(compact, []byte{'\n'}) != 1 || len(indented) <= len(compact) {
		t.Fatalf("compact has %d lines, indented %d bytes vs %d", bytes.Count(compact, []byte{'\n'}), len(indented), len(compact))
	}
	a := mustParse(t, compact)
	b := mustParse(t, indented)
	pa, _ := pin.Build(a, pin.Format2, pin.Approval{At: "2026-01-01T00:00:00Z"})
	pb, _ := pin.Build(b, pin.Format2, pin.Approval{At: "2026-01-01T00:00:00Z"})
	if !bytes.Equal(pa.Marshal(), pb.Marshal()) {
		t.Fatal("indentation changed the pinned descriptors")
	}
}

func mustParse(t *testing.T, data []byte) *engine.Inventory {
	t.Helper()
	inv, err := inventory.Parse("gen.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

func count(r *scan.Report, c engine.Class) int {
	n := 0
	for _, f := range r.Findings {
		if f.Class == c {
			n++
		}
	}
	return n
}

// The benchmarks rely on this shape: a clean inventory has no findings
// under the default rules but stdio transports, the reference rules flag
// its prose, and Mutate changes exactly that many tools.
func TestInventoryShapeTheBenchmarksRelyOn(t *testing.T) {
	const servers, tools, mutate = 9, 20, 12
	clean := mustParse(t, generate(t, invgen.Options{Servers: servers, Tools: tools, Seed: invgen.DefaultSeed}))
	if len(clean.Servers) != servers || len(clean.Tools()) != servers*tools {
		t.Fatalf("got %d servers, %d tools", len(clean.Servers), len(clean.Tools()))
	}
	transports := map[string]int{}
	for _, s := range clean.Servers {
		transports[s.Transport]++
	}
	if transports["http"] == 0 || transports["sse"] == 0 || transports["stdio"] == 0 {
		t.Fatalf("transport mix %v lacks one of http, sse, stdio", transports)
	}
	for _, tl := range clean.Tools() {
		if n := len(tl.Text("description")); n < invgen.DescriptionMin || n > invgen.DescriptionMax {
			t.Errorf("%s: description is %d characters, want %d to %d", tl.Key(), n, invgen.DescriptionMin, invgen.DescriptionMax)
		}
	}

	pin, err := pin.Build(clean, pin.Format2, pin.Approval{At: "2026-01-01T00:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	def := scan.Scan(clean, pin, scan.ScanOptions{Rules: detect.RulesDefault})
	if n := count(def, engine.Transport); n != len(def.Findings) || n < transports["stdio"] {
		for _, f := range def.Findings {
			t.Logf("%s %s: %s", f.Class, f.Subject, f.Detail)
		}
		t.Errorf("default rules on the clean inventory: %d findings, want only TRANSPORT ones for the %d stdio servers", len(def.Findings), transports["stdio"])
	}
	ref := scan.Scan(clean, pin, scan.ScanOptions{Rules: detect.RulesReference})
	if count(ref, engine.Poison) == 0 {
		t.Error("reference rules found no poison; the rule-exercising prose is missing")
	}

	mutated := mustParse(t, generate(t, invgen.Options{Servers: servers, Tools: tools, Seed: invgen.DefaultSeed, Mutate: mutate}))
	r := scan.Scan(mutated, pin, scan.ScanOptions{Rules: detect.RulesDefault})
	if got := count(r, engine.Mutation); got != mutate {
		t.Errorf("%d mutations, want %d", got, mutate)
	}
	if count(r, engine.Poison) == 0 {
		t.Error("no injected description was flagged as poison")
	}
}

// TestGenerateChange: the clean half is Generate without mutations, the
// changed half Generate with one.
func TestGenerateChange(t *testing.T) {
	o := invgen.Options{Servers: 2, Tools: 3, Seed: invgen.DefaultSeed, Mutate: 5}
	clean, changed, err := invgen.GenerateChange(o)
	if err != nil {
		t.Fatal(err)
	}
	o.Mutate = 0
	want0, _ := invgen.Generate(o)
	o.Mutate = 1
	want1, _ := invgen.Generate(o)
	if !bytes.Equal(clean, want0) || !bytes.Equal(changed, want1) || bytes.Equal(clean, changed) {
		t.Error("GenerateChange does not return the clean and the one-tool-changed inventories")
	}
}
