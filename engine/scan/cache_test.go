package scan

import (
	"reflect"
	"testing"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// TestCacheSameReport: a scan through a cache, cold or warm, across
// changes and rule sets, reports exactly what a scan without one does;
// the bound holds.
func TestCacheSameReport(t *testing.T) {
	gen := func(mutate int) []byte {
		b, err := invgen.Generate(invgen.Options{Servers: 12, Tools: 50, Seed: invgen.DefaultSeed, Mutate: mutate})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	clean, mutated := gen(0), gen(30)
	inv, err := inventory.Parse("inv.json", clean)
	if err != nil {
		t.Fatal(err)
	}
	pn, err := pin.Build(inv, pin.Format2, pin.Approval{By: "t", Note: "n", At: "2026-01-01T00:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	var c Cache
	for round, doc := range [][]byte{clean, mutated, mutated, clean, mutated} {
		for _, rs := range []detect.RuleSet{detect.RulesDefault, detect.RulesReference} {
			for _, p := range []*pin.Pin{pn, nil} {
				a, _ := inventory.Parse("inv.json", doc)
				b, _ := inventory.Parse("inv.json", doc)
				want := Scan(a, p, ScanOptions{Rules: rs})
				got := Scan(b, p, ScanOptions{Rules: rs, Cache: &c})
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d, rules %s, pin %v: the cached scan differs", round, rs, p != nil)
				}
			}
		}
	}
	small := Cache{Max: 100}
	a, _ := inventory.Parse("inv.json", mutated)
	Scan(a, pn, ScanOptions{Cache: &small})
	if small.Len() > 200 {
		t.Errorf("cache holds %d entries, bound 100 of each kind", small.Len())
	}
}
