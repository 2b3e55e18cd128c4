package scan

import (
	"reflect"
	"testing"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// scanBothWays scans inv with detection taking its accept hashes from
// compare (waitForHashes) and hashing each finding's tool itself, as it
// did, and fails unless the reports are the same. It returns how many
// findings carry an accept hash.
func scanBothWays(t testing.TB, inv *engine.Inventory, pn *pin.Pin, opt ScanOptions) int {
	t.Helper()
	defer func(was bool) { waitForHashes = was }(waitForHashes)
	waitForHashes = false
	want := Scan(inv, pn, opt)
	waitForHashes = true
	got := Scan(inv, pn, opt)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rules %s, classes %v: the report differs when detection waits for compare's hashes\ngot  %+v\nwant %+v", opt.Rules, opt.Classes, got.Findings, want.Findings)
	}
	n := 0
	for _, f := range got.Findings {
		if f.AcceptHash != "" {
			n++
		}
	}
	return n
}

func genInv(t testing.TB, seed uint64, servers, mutate int) *engine.Inventory {
	t.Helper()
	b, err := invgen.Generate(invgen.Options{Servers: servers, Tools: 20, Seed: seed, Mutate: mutate})
	if err != nil {
		t.Fatal(err)
	}
	return mustInv(t, string(b))
}

// testPins are the pins of base a scan meets: format 2 with the default
// exclusions (whose hashes are the accept hashes), format 2 pinning
// everything and format 1 (whose are not), and none.
func testPins(t testing.TB, base *engine.Inventory) []*pin.Pin {
	t.Helper()
	var out []*pin.Pin
	for _, format := range []int{pin.Format2, pin.Format2, pin.Format1} {
		pn, err := pin.Build(base, format, pin.Approval{By: "t", At: "2026-01-01T00:00:00Z"})
		if err != nil {
			t.Fatal(err)
		}
		if len(out) == 1 {
			pn.Exclude = []string{}
		}
		out = append(out, pn)
	}
	return append(out, nil)
}

// TestDetectionWaitsForCompareHashes: detection that starts before
// compare and takes its findings' accept hashes from it reports what it
// reported hashing each tool itself, with every pin, both rule sets and
// classes with and without compare, over inventories large enough for
// detection to run on every CPU (and one that is not), clean and changed.
func TestDetectionWaitsForCompareHashes(t *testing.T) {
	base := genInv(t, invgen.DefaultSeed, 30, 0) // 600 tools: startPoisons' workers
	hashed := 0
	for _, pn := range testPins(t, base) {
		for _, inv := range []*engine.Inventory{base, genInv(t, invgen.DefaultSeed, 30, 60), genInv(t, invgen.DefaultSeed, 34, 9), genInv(t, invgen.DefaultSeed, 5, 6), {File: "empty.json"}} {
			for _, rs := range []detect.RuleSet{detect.RulesDefault, detect.RulesReference} {
				for _, classes := range [][]engine.Class{nil, {engine.Poison}, {engine.Mutation}, {engine.Poison, engine.Shadow}} {
					hashed += scanBothWays(t, inv, pn, ScanOptions{Rules: rs, Classes: classes})
				}
			}
		}
	}
	if hashed == 0 {
		t.Fatal("no finding has an accept hash: the test compares nothing")
	}
}

// FuzzDetectionWaitsForCompareHashes: the same over generated
// inventories of other seeds, sizes and changes.
func FuzzDetectionWaitsForCompareHashes(f *testing.F) {
	f.Add(uint64(invgen.DefaultSeed), uint8(30), uint8(0), uint8(0), true)
	f.Add(uint64(7), uint8(27), uint8(50), uint8(2), false)
	f.Fuzz(func(t *testing.T, seed uint64, servers, mutate, which uint8, ref bool) {
		n := 1 + int(servers)%40
		base := genInv(t, seed, n, 0)
		pn := testPins(t, base)[int(which)%4]
		rs := detect.RulesDefault
		if ref {
			rs = detect.RulesReference
		}
		scanBothWays(t, genInv(t, seed, n, int(mutate)%(n*20+1)), pn, ScanOptions{Rules: rs})
	})
}
