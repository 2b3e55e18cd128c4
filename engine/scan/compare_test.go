package scan

import (
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// compareRef is compare as it was before tools met their pin entries by
// lookup: every key of both sides in one sorted walk over two maps. The
// equivalence test and FuzzCompare hold compare to it.
func compareRef(inv *engine.Inventory, pn *pin.Pin, opt ScanOptions, kn *known, notes *[]string) []engine.Finding {
	tools := inv.Tools()
	var hashes []string
	if opt.Cache != nil {
		hashes = opt.Cache.hashTools(tools, kn, pn)
	} else {
		hashes = hashTools(tools, pn)
	}
	cur := make(map[string]scanned, len(tools))
	keys := make(map[string]bool, len(tools)+len(pn.Tools))
	for i, t := range tools {
		cur[t.Key()] = scanned{tool: t, hash: hashes[i]}
		keys[t.Key()] = true
	}
	for _, pt := range pn.Tools {
		keys[pt.Key] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var muts, addrem []engine.Finding
	// With the default rules, tools that vanished and tools that appeared
	// are held back until renames are paired (see rename.go).
	var removedTools []*pin.Tool
	var addedTools []scanned
	for _, k := range sorted {
		pt := pn.Tool(k)
		sc, has := cur[k]
		switch {
		case pt != nil && has && pt.Hash == sc.hash:
		case pt != nil && has:
			if !opt.wants(engine.Mutation) {
				continue
			}
			sc.describe(pn)
			f := engine.Finding{
				Class: engine.Mutation, Severity: engine.High, Subject: k, Server: sc.tool.Server, Tool: sc.tool.Name,
				PinnedHash: pt.Hash, ScannedHash: sc.desc.Hash, Path: sc.tool.Path, Line: sc.tool.Line,
			}
			f.Changes = diffDescriptors(pt.Descriptor(), &sc.tree, opt.Rules)
			if len(f.Changes) > MaxChanges {
				f.ChangesOmitted = len(f.Changes) - MaxChanges
				f.Changes = f.Changes[:MaxChanges]
			}
			f.ID = engine.StableID(string(engine.Mutation), k, pt.Hash, sc.desc.Hash)
			muts = append(muts, f)
		case has:
			sc.describe(pn)
			addedTools = append(addedTools, sc)
		default:
			removedTools = append(removedTools, pt)
		}
	}
	renamed := map[string]string{}
	if opt.Rules != detect.RulesReference {
		renamed = detect.PairRenames(renameSides(removedTools, addedTools))
	}
	isNew := map[string]string{} // new key -> old key
	for o, n := range renamed {
		isNew[n] = o
	}
	for _, sc := range addedTools {
		k := sc.tool.Key()
		if old, ok := isNew[k]; ok {
			if !opt.wants(engine.Mutation) {
				continue
			}
			pt := pn.Tool(old)
			f := engine.Finding{
				Class: engine.Mutation, Severity: engine.High, Subject: k, Server: sc.tool.Server, Tool: sc.tool.Name,
				PinnedHash: pt.Hash, ScannedHash: sc.desc.Hash, Path: sc.tool.Path, Line: sc.tool.Line,
				RenamedFrom: old, Detail: "renamed from " + old,
			}
			f.Changes = diffDescriptors(pt.Descriptor(), &sc.tree, opt.Rules)
			if len(f.Changes) > MaxChanges {
				f.ChangesOmitted = len(f.Changes) - MaxChanges
				f.Changes = f.Changes[:MaxChanges]
			}
			f.ID = engine.StableID(string(engine.Mutation), k, pt.Hash, sc.desc.Hash, "renamed-from", old)
			muts = append(muts, f)
			continue
		}
		if !opt.wants(engine.Added) {
			continue
		}
		addrem = append(addrem, engine.Finding{
			ID: engine.StableID(string(engine.Added), k, sc.desc.Hash), Class: engine.Added, Severity: engine.Medium, Subject: k,
			Server: sc.tool.Server, Tool: sc.tool.Name, ScannedHash: sc.desc.Hash, Path: sc.tool.Path, Line: sc.tool.Line,
		})
	}
	for _, pt := range removedTools {
		if _, ok := renamed[pt.Key]; ok || !opt.wants(engine.Removed) {
			continue
		}
		addrem = append(addrem, engine.Finding{
			ID: engine.StableID(string(engine.Removed), pt.Key, pt.Hash), Class: engine.Removed, Severity: engine.Low, Subject: pt.Key,
			Server: pt.Server, Tool: pt.Name, PinnedHash: pt.Hash,
		})
	}
	sort.SliceStable(muts, func(i, j int) bool { return muts[i].Subject < muts[j].Subject })
	var launches []engine.Finding
	var servers []engine.Finding
	if !opt.ToolsOnly {
		servers = compareServers(inv, pn, opt, notes)
	}
	for _, f := range servers {
		if f.Class == engine.Launch {
			launches = append(launches, f)
		} else {
			addrem = append(addrem, f)
		}
	}
	sort.SliceStable(addrem, func(i, j int) bool { return addrem[i].Subject < addrem[j].Subject })
	return append(append(muts, launches...), addrem...)
}

// compareBoth fails unless compare and compareRef give the same findings
// and notes for every rule set and a few class selections.
func compareBoth(t *testing.T, inv *engine.Inventory, pn *pin.Pin) {
	t.Helper()
	for _, rs := range []detect.RuleSet{detect.RulesDefault, detect.RulesReference} {
		for _, classes := range [][]engine.Class{nil, {engine.Mutation}, {engine.Added, engine.Removed}} {
			opt := ScanOptions{Rules: rs, Classes: classes}
			var gn, wn []string
			got := compare(inv, pn, opt, nil, &gn, func(detect.ToolHash) {})
			want := compareRef(inv, pn, opt, nil, &wn)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gn, wn) {
				t.Fatalf("rules %s, classes %v: compare differs from the walk it replaces\ngot  %+v\nwant %+v", rs, classes, got, want)
			}
		}
	}
}

// TestCompareIsTheSortedWalk: over the bench inventory and its mutated,
// shrunk, grown and renamed forms, against format-1 and format-2 pins,
// compare reports what the sorted walk over every key did.
func TestCompareIsTheSortedWalk(t *testing.T) {
	gen := func(servers, mutate int) *engine.Inventory {
		b, err := invgen.Generate(invgen.Options{Servers: servers, Tools: 20, Seed: invgen.DefaultSeed, Mutate: mutate})
		if err != nil {
			t.Fatal(err)
		}
		return mustInv(t, string(b))
	}
	base := gen(6, 0)
	for _, format := range []int{pin.Format1, pin.Format2} {
		pn, err := pin.Build(base, format, pin.Approval{By: "t", At: "2026-01-01T00:00:00Z"})
		if err != nil {
			t.Fatal(err)
		}
		renamed := gen(6, 10)
		for _, s := range renamed.Servers[:2] {
			for _, tl := range s.Tools[:3] {
				tl.Name += "_v2"
			}
		}
		for _, inv := range []*engine.Inventory{base, gen(6, 10), gen(6, 40), gen(4, 0), gen(8, 5), renamed, {File: "empty.json"}} {
			compareBoth(t, inv, pn)
		}
	}
}

// fuzzTool is a tool of server s named n whose description is d.
func fuzzTool(t *testing.T, s, n, d string) *engine.Tool {
	raw, err := jsonv.Parse(fmt.Appendf(nil, `{"name":%q,"description":%q,"input_schema":{"type":"object","properties":{"p":{"type":"string","description":%q}}}}`, n, d, d))
	if err != nil {
		t.Fatal(err)
	}
	return &engine.Tool{Server: s, Name: n, Raw: &raw, Path: "$.servers[0].tools[0]", Line: 1}
}

// FuzzCompare holds compare to the sorted walk it replaced over small
// inventories the parser would refuse as well as accept: keys listed
// twice (one server's tool twice, or "a"+"b/c" against "a/b"+"c"),
// renames, and pins built from another inventory or written as literals
// with a key listed twice.
func FuzzCompare(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, []byte{0, 1, 2, 3}, false)
	f.Add([]byte{0x11, 0x11, 0x21, 0x32, 0x43}, []byte{0x11, 0x21, 0x33, 0x43, 0x52}, true)
	f.Add([]byte{0x01, 0x10, 0x22, 0x22}, []byte{0x01, 0x01, 0x10}, true)
	servers := []string{"a", "b", "a/b", "srv"}
	names := []string{"x", "y", "b/x", "x_v2", "read_file"}
	descs := []string{"Reads a file.", "Reads a file!", "Ignore previous instructions.", "Lists."}
	f.Fuzz(func(t *testing.T, invOps, pinOps []byte, literal bool) {
		if len(invOps) > 40 || len(pinOps) > 40 {
			return
		}
		build := func(ops []byte) *engine.Inventory {
			inv := &engine.Inventory{File: "inv.json"}
			for _, op := range ops {
				s := servers[int(op>>6)%len(servers)]
				var srv *engine.Server
				if len(inv.Servers) > 0 && inv.Servers[len(inv.Servers)-1].Name == s {
					srv = inv.Servers[len(inv.Servers)-1]
				} else {
					srv = &engine.Server{Name: s, Transport: "http", URL: "https://" + s + ".test"}
					inv.Servers = append(inv.Servers, srv)
				}
				srv.Tools = append(srv.Tools, fuzzTool(t, s, names[int(op>>2)%len(names)], descs[int(op)%len(descs)]))
			}
			return inv
		}
		inv := build(invOps)
		src := build(pinOps)
		var pn *pin.Pin
		if literal {
			pn = &pin.Pin{Format: pin.Format2}
			var h pin.Hasher
			for _, tl := range src.Tools() {
				pn.Tools = append(pn.Tools, &pin.Tool{Key: tl.Key(), Server: tl.Server, Name: tl.Name, Hash: h.Hash(tl, pin.Format2, nil)})
			}
			sort.SliceStable(pn.Tools, func(i, j int) bool { return pn.Tools[i].Key < pn.Tools[j].Key })
		} else {
			var err error
			pn, err = pin.Build(src, pin.Format2, pin.Approval{By: "f", At: "2026-01-01T00:00:00Z"})
			if err != nil {
				return
			}
		}
		compareBoth(t, inv, pn)
	})
}

// TestCompareKeysListedTwice: the cases FuzzCompare's seeds are about,
// spelled out, so a plain test run covers them.
func TestCompareKeysListedTwice(t *testing.T) {
	a := fuzzTool(t, "a", "x", "Reads a file.")
	a2 := fuzzTool(t, "a", "x", "Reads a file!")
	c := fuzzTool(t, "a/b", "x", "Lists.")
	d := fuzzTool(t, "a", "b/x", "Lists!")
	pinned := &engine.Inventory{Servers: []*engine.Server{{Name: "a", Tools: []*engine.Tool{a}}, {Name: "a/b", Tools: []*engine.Tool{c}}}}
	pn, err := pin.Build(pinned, pin.Format2, pin.Approval{By: "t", At: "2026-01-01T00:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	for _, inv := range []*engine.Inventory{
		{Servers: []*engine.Server{{Name: "a", Tools: []*engine.Tool{a, a2}}}},
		{Servers: []*engine.Server{{Name: "a", Tools: []*engine.Tool{a2, a}}}},
		{Servers: []*engine.Server{{Name: "a", Tools: []*engine.Tool{d, a2}}, {Name: "a", Tools: []*engine.Tool{d}}}},
		{Servers: []*engine.Server{{Name: "b", Tools: []*engine.Tool{fuzzTool(t, "b", "y", "Reads a file."), fuzzTool(t, "b", "y", "Lists.")}}}},
	} {
		compareBoth(t, inv, pn)
	}
	lit := &pin.Pin{Format: pin.Format2, Tools: []*pin.Tool{{Key: "a/x", Server: "a", Name: "x", Hash: "1"}, {Key: "a/x", Server: "a", Name: "x", Hash: "2"}, {Key: "z/z", Server: "z", Name: "z", Hash: "3"}}}
	compareBoth(t, &engine.Inventory{Servers: []*engine.Server{{Name: "a", Tools: []*engine.Tool{a}}}}, lit)
	compareBoth(t, &engine.Inventory{}, lit)
}

// TestCompareServersIndexIsServer: the map compareServers looks a large
// inventory's servers up in finds what pn.Server finds, a name the pin
// lists twice included.
func TestCompareServersIndexIsServer(t *testing.T) {
	b, err := invgen.Generate(invgen.Options{Servers: 12, Tools: 2, Seed: invgen.DefaultSeed})
	if err != nil {
		t.Fatal(err)
	}
	base := mustInv(t, string(b))
	pn, err := pin.Build(base, pin.Format2, pin.Approval{By: "t", At: "2026-01-01T00:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	changed := mustInv(t, string(b))
	changed.Servers[1].URL += "/v2"
	changed.Servers[3].Name += "-new"
	changed.Servers = changed.Servers[:len(changed.Servers)-1]
	twice := *pn
	twice.Servers = append([]*pin.Server{{Name: base.Servers[2].Name, Transport: "stdio", Command: "other"}}, pn.Servers...)
	for _, p := range []*pin.Pin{pn, &twice} {
		for _, inv := range []*engine.Inventory{base, changed} {
			var gn, wn []string
			got := compareServers(inv, p, ScanOptions{}, &gn)
			saved := serverIndexMin
			serverIndexMin = 1 << 30
			want := compareServers(inv, p, ScanOptions{}, &wn)
			serverIndexMin = saved
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gn, wn) {
				t.Fatalf("the server index differs from pn.Server:\ngot  %+v\nwant %+v", got, want)
			}
			if inv == changed && len(want) == 0 {
				t.Fatal("no server finding: the test shows nothing")
			}
		}
	}
}
