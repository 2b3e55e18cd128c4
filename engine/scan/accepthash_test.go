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

// applyAcceptancesRef is applyAcceptances as it was: the finding by
// value, both halves built for every POISON finding the pin has any
// acceptance for.
func applyAcceptancesRef(f engine.Finding, pn *pin.Pin, rs detect.RuleSet) (reported, accepted *engine.Finding, ok bool) {
	if pn == nil || f.AcceptHash == "" {
		return &f, nil, true
	}
	if pn.Accepted(f.ID, f.AcceptHash) != nil {
		return nil, &f, true
	}
	if f.Class != engine.Poison {
		return &f, nil, true
	}
	keep, acc := f, f
	keep.Signals, acc.Signals = nil, nil
	keep.Score, acc.Score = 0, 0
	for _, s := range f.Signals {
		if pn.Accepted(s.ID, f.AcceptHash) != nil {
			acc.Signals = append(acc.Signals, s)
			acc.Score += s.Weight
		} else {
			keep.Signals = append(keep.Signals, s)
			keep.Score += s.Weight
		}
	}
	keep.Severity = detect.PoisonSeverity(rs, keep.Signals)
	acc.Severity = detect.PoisonSeverity(rs, acc.Signals)
	if len(acc.Signals) == 0 {
		return &f, nil, true
	}
	if len(keep.Signals) == 0 {
		return nil, &acc, true
	}
	return &keep, &acc, true
}

// acceptSome scans inv against pn and gives pn acceptances picked by
// pick from what it reports: whole findings, single signals, every
// signal of a finding one by one, and ids with a stale hash.
func acceptSome(t testing.TB, inv *engine.Inventory, pn *pin.Pin, rs detect.RuleSet, pick []byte) {
	t.Helper()
	r := Scan(inv, pn, ScanOptions{Rules: rs})
	for i, f := range r.Findings {
		if len(pick) == 0 {
			return
		}
		switch c := pick[i%len(pick)] % 8; {
		case c == 1:
			pn.Acceptances = append(pn.Acceptances, &pin.Acceptance{ID: f.ID, Class: f.Class, Subject: f.Subject, Hash: f.AcceptHash})
		case c == 2 && len(f.Signals) > 0:
			s := f.Signals[int(pick[(i+1)%len(pick)])%len(f.Signals)]
			pn.Acceptances = append(pn.Acceptances, &pin.Acceptance{ID: s.ID, Class: f.Class, Subject: f.Subject, Signal: s.Name, Hash: f.AcceptHash})
		case c == 3:
			for _, s := range f.Signals {
				pn.Acceptances = append(pn.Acceptances, &pin.Acceptance{ID: s.ID, Class: f.Class, Subject: f.Subject, Signal: s.Name, Hash: f.AcceptHash})
			}
		case c == 4 && len(f.Signals) > 0:
			pn.Acceptances = append(pn.Acceptances, &pin.Acceptance{ID: f.Signals[0].ID, Class: f.Class, Subject: f.Subject, Hash: "stale"})
		}
	}
}

// sameAcceptances fails unless Scan's report is what the old split of
// every finding gives: the findings a scan without acceptances reports,
// each through applyAcceptancesRef.
func sameAcceptances(t testing.TB, inv *engine.Inventory, pn *pin.Pin, rs detect.RuleSet) int {
	t.Helper()
	bare := *pn
	bare.Acceptances = nil
	all := Scan(inv, &bare, ScanOptions{Rules: rs}).Findings
	want := &Report{}
	for _, f := range all {
		if f, acc, ok := applyAcceptancesRef(f, pn, rs); ok {
			if acc != nil {
				want.Accepted = append(want.Accepted, *acc)
			}
			if f != nil {
				want.Findings = append(want.Findings, *f)
			}
		}
	}
	got := Scan(inv, pn, ScanOptions{Rules: rs})
	if !reflect.DeepEqual(got.Findings, want.Findings) || !reflect.DeepEqual(got.Accepted, want.Accepted) {
		t.Fatalf("rules %s, %d acceptances: the report differs from the old split\ngot  %d findings %d accepted\nwant %d findings %d accepted", rs, len(pn.Acceptances), len(got.Findings), len(got.Accepted), len(want.Findings), len(want.Accepted))
	}
	return len(got.Accepted)
}

// TestAcceptancesSplitAsBefore: findings with no acceptance are reported
// as they are (not copied), and accepted, split and stale ones as the old
// split had them.
func TestAcceptancesSplitAsBefore(t *testing.T) {
	base := genInv(t, invgen.DefaultSeed, 30, 0)
	accepted := 0
	for _, rs := range []detect.RuleSet{detect.RulesDefault, detect.RulesReference} {
		for _, pick := range [][]byte{nil, {1}, {2, 0, 3}, {0, 0, 1, 2, 3, 4, 5}, {3, 4}} {
			for _, inv := range []*engine.Inventory{base, genInv(t, invgen.DefaultSeed, 30, 60)} {
				pn := testPins(t, base)[0]
				acceptSome(t, inv, pn, rs, pick)
				accepted += sameAcceptances(t, inv, pn, rs)
			}
		}
	}
	if accepted == 0 {
		t.Fatal("nothing was accepted: the test compares nothing")
	}
}

func FuzzAcceptancesSplitAsBefore(f *testing.F) {
	f.Add(uint64(invgen.DefaultSeed), uint8(12), uint8(30), []byte{2, 0, 3}, true)
	f.Fuzz(func(t *testing.T, seed uint64, servers, mutate uint8, pick []byte, ref bool) {
		n := 1 + int(servers)%20
		base := genInv(t, seed, n, 0)
		rs := detect.RulesDefault
		if ref {
			rs = detect.RulesReference
		}
		inv := genInv(t, seed, n, int(mutate)%(n*20+1))
		pn := testPins(t, base)[0]
		acceptSome(t, inv, pn, rs, pick)
		sameAcceptances(t, inv, pn, rs)
	})
}
