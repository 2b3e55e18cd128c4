package detect

import (
	"sort"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// Shadows groups tool names claimed by two or more servers. The reference
// rules group exact names as written; the default rules group names that
// read alike: equal after trimming, case folding, NFKC or look-alike
// mapping (see shadow.go).
func Shadows(inv *engine.Inventory, rs RuleSet) []engine.Finding {
	if rs != RulesReference {
		return LookalikeShadows(inv)
	}
	claim := map[string][]string{}
	for _, s := range inv.Servers {
		for _, t := range s.Tools {
			name := t.Name
			if !containsStr(claim[name], s.Name) {
				claim[name] = append(claim[name], s.Name)
			}
		}
	}
	names := make([]string, 0, len(claim))
	for n, servers := range claim {
		if len(servers) > 1 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var out []engine.Finding
	for _, n := range names {
		servers := append([]string(nil), claim[n]...)
		sort.Strings(servers)
		var claimants []string
		for _, s := range servers {
			for _, t := range inv.Server(s).Tools {
				if t.Name == n {
					claimants = append(claimants, s+"/"+pin.Describe(t, pin.Format2, pin.DefaultExclude()).Hash)
				}
			}
		}
		out = append(out, engine.Finding{
			ID: engine.StableID(string(engine.Shadow), n, engine.JoinSorted(servers)), Class: engine.Shadow, Severity: engine.Medium,
			Subject: n, Tool: n, Servers: servers, Collision: "exact",
			AcceptHash: canon.Hash([]byte(engine.JoinSorted(claimants))),
		})
	}
	return out
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// Poisons runs the poison signals of a rule set over every tool of inv
// and returns one POISON finding per tool that fires.
func Poisons(inv *engine.Inventory, rs RuleSet) []engine.Finding {
	var out []engine.Finding
	for _, t := range inv.Tools() {
		sigs := Poison(t, rs)
		if len(sigs) == 0 {
			continue
		}
		key := t.Key()
		f := engine.Finding{Class: engine.Poison, Subject: key, Server: t.Server, Tool: t.Name, Path: t.Path, Line: t.Line}
		names := make([]string, len(sigs))
		for i := range sigs {
			sigs[i].ID = engine.StableID(string(engine.Poison), key, sigs[i].Name)
			f.Score += sigs[i].Weight
			names[i] = sigs[i].Name
		}
		sort.Strings(names)
		f.Signals = sigs
		f.Severity = PoisonSeverity(rs, sigs)
		f.ID = engine.StableID(string(engine.Poison), key, engine.JoinSorted(names))
		f.AcceptHash = pin.Describe(t, pin.Format2, pin.DefaultExclude()).Hash
		out = append(out, f)
	}
	return out
}
