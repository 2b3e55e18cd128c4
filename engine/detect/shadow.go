package detect

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/canon"
)

// Look-alike shadowing. The default rules group tool names that read the
// same to a person or a model: equal after case folding (READ_FILE),
// after NFKC (fullwidth ｒｅａｄ_ｆｉｌｅ) or after mapping look-alike
// letters (Cyrillic а in reаd_file), see Skeleton. A group claimed by two
// or more servers is one SHADOW finding; its Collision is the strongest
// kind in the group and LookAlikes names each differing name, where it is
// and which characters differ.

type claim struct {
	server, name string
	tool         *engine.Tool
}

// LookalikeShadows is the default rules' SHADOW detector.
func LookalikeShadows(inv *engine.Inventory) []engine.Finding { return lookalikeShadows(inv, nil) }

// lookalikeShadows is LookalikeShadows taking accept hashes from hash
// where it can (see ToolHash).
func lookalikeShadows(inv *engine.Inventory, hash ToolHash) []engine.Finding {
	groups := map[string][]claim{}
	for _, s := range inv.Servers {
		for _, t := range s.Tools {
			name := canon.Strip(t.Name)
			k := Skeleton(name)
			groups[k] = append(groups[k], claim{s.Name, name, t})
		}
	}
	var out []engine.Finding
	for _, cl := range groups {
		servers := map[string]bool{}
		for _, c := range cl {
			servers[c.server] = true
		}
		if len(servers) < 2 {
			continue
		}
		out = append(out, shadowFinding(cl, slices.Sorted(maps.Keys(servers)), hash))
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Subject != out[j].Subject {
			return out[i].Subject < out[j].Subject
		}
		return out[i].ID < out[j].ID
	})
	return out
}

func shadowFinding(cl []claim, servers []string, hash ToolHash) engine.Finding {
	rep := representative(cl)
	sort.Slice(cl, func(i, j int) bool {
		if cl[i].server != cl[j].server {
			return cl[i].server < cl[j].server
		}
		return cl[i].name < cl[j].name
	})
	var claimants, names []string
	var looks []engine.LookAlike
	kind := CollisionExact
	seenName := map[string]bool{rep: true}
	for _, c := range cl {
		claimants = append(claimants, c.server+"/"+hash.acceptHash(c.tool))
		if c.name == rep {
			continue
		}
		k := CollisionKind(rep, c.name)
		if collisionRank(k) > collisionRank(kind) {
			kind = k
		}
		la := engine.LookAlike{Server: c.server, Name: c.name, Kind: k}
		if k != CollisionCase {
			la.Chars = DescribeRunes(c.name)
		}
		looks = append(looks, la)
		if !seenName[c.name] {
			seenName[c.name] = true
			names = append(names, c.name)
		}
	}
	sort.Strings(claimants)
	f := engine.Finding{
		Class: engine.Shadow, Severity: engine.Medium, Subject: rep, Tool: rep, Servers: servers, Collision: kind,
		LookAlikes: looks, AcceptHash: canon.Hash([]byte(engine.JoinSorted(claimants))),
	}
	if len(looks) == 0 {
		// The id of an exact shadow is the reference rules' id, so an
		// acceptance recorded before look-alikes were grouped still holds.
		f.ID = engine.StableID(string(engine.Shadow), rep, engine.JoinSorted(servers))
		return f
	}
	sort.Strings(names)
	f.ID = engine.StableID(string(engine.Shadow), rep, engine.JoinSorted(servers), "lookalike", engine.JoinSorted(names))
	var parts []string
	for _, la := range looks {
		p := la.Kind + ": " + la.Name + " on " + la.Server
		if la.Chars != "" {
			p += " (" + la.Chars + ")"
		}
		parts = append(parts, p)
	}
	f.Detail = "look-alike names: " + strings.Join(parts, "; ")
	return f
}

// representative picks the name a group is reported under: one in the
// MCP character set, then the one most servers claim, then one already
// in lower case, then the first in byte order.
func representative(cl []claim) string {
	count := map[string]map[string]bool{}
	for _, c := range cl {
		if count[c.name] == nil {
			count[c.name] = map[string]bool{}
		}
		count[c.name][c.server] = true
	}
	best := ""
	better := func(a, b string) bool {
		if ia, ib := InMCPCharset(a), InMCPCharset(b); ia != ib {
			return ia
		}
		if na, nb := len(count[a]), len(count[b]); na != nb {
			return na > nb
		}
		if la, lb := a == strings.ToLower(a), b == strings.ToLower(b); la != lb {
			return la
		}
		return a < b
	}
	for n := range count {
		if best == "" || better(n, best) {
			best = n
		}
	}
	return best
}
