package detect

import (
	"sort"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// ToolHash gives the hash a finding about tool t is accepted by, the
// hash of its pinned form in format 2 with the default exclusions
// (pin.Describe(t, pin.Format2, pin.DefaultExclude()).Hash), when the
// caller has already worked it out (a scan has, for every tool, when its
// pin is in that form); false sends Poisons and Shadows to hash the tool
// themselves.
type ToolHash func(t *engine.Tool) (string, bool)

// HashesOf is the ToolHash of tools whose hashes (in that form) are
// hashes, in the same order.
func HashesOf(tools []*engine.Tool, hashes []string) ToolHash {
	at := make(map[*engine.Tool]string, len(tools))
	for i, t := range tools {
		at[t] = hashes[i]
	}
	return func(t *engine.Tool) (string, bool) {
		h, ok := at[t]
		return h, ok
	}
}

// acceptHash is t's accept hash, from h when it has it.
func (h ToolHash) acceptHash(t *engine.Tool) string {
	if h != nil {
		if s, ok := h(t); ok {
			return s
		}
	}
	s, _ := pin.HashInto(nil, t, pin.Format2, pin.DefaultExclude()) // Describe's Hash, with no tree built
	return s
}

// Shadows groups tool names claimed by two or more servers. The reference
// rules group exact names as written; the default rules group names that
// read alike: equal after trimming, case folding, NFKC or look-alike
// mapping (see shadow.go).
func Shadows(inv *engine.Inventory, rs RuleSet) []engine.Finding {
	return ShadowsHashed(inv, rs, nil)
}

// ShadowsHashed is Shadows taking each claimant's accept hash from hash
// (see ToolHash) where it can.
func ShadowsHashed(inv *engine.Inventory, rs RuleSet, hash ToolHash) []engine.Finding {
	if rs != RulesReference {
		return lookalikeShadows(inv, hash)
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
					claimants = append(claimants, s+"/"+hash.acceptHash(t))
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
	return PoisonsHashed(inv, rs, nil)
}

// PoisonsHashed is Poisons taking each finding's accept hash from hash
// (see ToolHash) where it can.
func PoisonsHashed(inv *engine.Inventory, rs RuleSet, hash ToolHash) []engine.Finding {
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
		f.AcceptHash = hash.acceptHash(t)
		out = append(out, f)
	}
	return out
}
