package scan

import (
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// Shadow grouping beyond look-alike skeletons.
//
// detect groups tool names that read alike letter by letter. Two more ways
// of reading the same are grouped here:
//
//   - loosely alike names: equal once separators (_ - . space) are dropped,
//     case folded (readFile, read-file, read_file) and diacritics removed
//     (read_fiĺe); a group that joins what detect keeps apart replaces
//     detect's findings for it with one;
//   - names a client's namespace makes equal: Claude Code shows a tool to
//     the model as mcp__<server>__<tool>, so git/hub__push and
//     git__hub/push are both mcp__git__hub__push, and whichever the client
//     resolves first runs for both.

// CollisionLoose and CollisionNamespace are the kinds this file adds.
const (
	CollisionLoose     = "separator" // equal without separators, case and diacritics
	CollisionNamespace = "namespace" // equal once a client qualifies them with the server
	collisionDiacritic = "diacritic" // one name carries accents the other lacks
)

// Namespace is how one client names a server's tool to the model.
type Namespace struct {
	Client string // client id ("claude-code")
	Label  string // for people ("Claude Code")
	Form   string // the shape, "mcp__<server>__<tool>"
	Name   func(server, tool string) string
}

// sanitize replaces every character outside keep with '_'.
func sanitizeName(s, extra string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || strings.ContainsRune(extra, r)) {
			return r
		}
		return '_'
	}, s)
}

// Namespaces are the clients whose tool names qualify the tool with its
// server, as their documentation and source describe them (late 2026).
// Clients that show the bare tool name are covered by exact and
// look-alike grouping.
var Namespaces = []Namespace{
	{"claude-code", "Claude Code", "mcp__<server>__<tool>", func(s, t string) string {
		return "mcp__" + sanitizeName(s, "") + "__" + sanitizeName(t, "")
	}},
	{"codex", "Codex CLI", "<server>__<tool>", func(s, t string) string {
		return sanitizeName(s, "") + "__" + sanitizeName(t, "")
	}},
	{"gemini-cli", "Gemini CLI", "<server>__<tool>", func(s, t string) string {
		return sanitizeName(s, ".") + "__" + sanitizeName(t, ".")
	}},
	{"vscode", "VS Code", "mcp_<server>_<tool>", func(s, t string) string {
		return strings.ToLower("mcp_" + sanitizeName(s, "") + "_" + sanitizeName(t, ""))
	}},
	{"cursor", "Cursor", "mcp_<server>_<tool>", func(s, t string) string {
		return "mcp_" + sanitizeName(s, "") + "_" + sanitizeName(t, "")
	}},
	{"opencode", "OpenCode", "<server>_<tool>", func(s, t string) string {
		return sanitizeName(s, "") + "_" + sanitizeName(t, "")
	}},
}

// clientOf returns the client a server belongs to and its name as that
// client knows it: without DescriptorPin's "client:" prefix and the
// "@<dir>" of a Claude Code project entry. The client is "" when neither
// the server nor its name says.
func clientOf(s *engine.Server) (client, name string) {
	client, name = s.Client, s.Name
	if client == "" {
		if i := strings.IndexByte(name, ':'); i > 0 {
			for _, ns := range Namespaces {
				if name[:i] == ns.Client {
					client = ns.Client
				}
			}
			if client == "" {
				for _, c := range []string{"claude-desktop", "windsurf", "cline", "roo-code", "continue", "zed", "kiro", "amazon-q", "copilot-cli", "generic"} {
					if name[:i] == c {
						client = c
					}
				}
			}
		}
	}
	if client != "" {
		name = strings.TrimPrefix(name, client+":")
	}
	if i := strings.LastIndex(name, "@"); i > 0 && client == "claude-code" {
		name = name[:i]
	}
	return client, name
}

type shadowClaim struct {
	server, name string // DescriptorPin's server name; the tool name, trimmed
	tool         *engine.Tool
}

// looseKey is a name without diacritics, in its look-alike skeleton,
// without separators.
func looseKey(name string) string {
	sk := detect.Skeleton(stripMarks(name))
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, sk)
}

// groupShadows applies the loose grouping to detect's SHADOW findings and
// adds the namespace collisions.
func groupShadows(inv *engine.Inventory, found []engine.Finding) []engine.Finding {
	loose := map[string][]shadowClaim{}
	for _, s := range inv.Servers {
		for _, t := range s.Tools {
			n := canon.Strip(t.Name)
			loose[looseKey(n)] = append(loose[looseKey(n)], shadowClaim{s.Name, n, t})
		}
	}
	drop := map[string]bool{} // skeletons of detect findings a loose group replaces
	var out []engine.Finding
	for _, cl := range loose {
		servers := map[string]bool{}
		skeletons := map[string]map[string]bool{} // skeleton -> servers
		for _, c := range cl {
			servers[c.server] = true
			k := detect.Skeleton(c.name)
			if skeletons[k] == nil {
				skeletons[k] = map[string]bool{}
			}
			skeletons[k][c.server] = true
		}
		if len(servers) < 2 || len(skeletons) < 2 {
			continue // detect's grouping is this one, or there is no shadow
		}
		for k := range skeletons {
			drop[k] = true
		}
		out = append(out, looseFinding(cl, slices.Sorted(maps.Keys(servers))))
	}
	for _, f := range found {
		if f.Class == engine.Shadow && drop[detect.Skeleton(f.Subject)] {
			continue
		}
		out = append(out, f)
	}
	out = append(out, namespaceShadows(inv)...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Subject != out[j].Subject {
			return out[i].Subject < out[j].Subject
		}
		return out[i].ID < out[j].ID
	})
	return out
}

func claimant(c shadowClaim) string {
	return c.server + "/" + pin.Describe(c.tool, pin.Format2, pin.DefaultExclude()).Hash
}

// looseFinding is one SHADOW for a loose group, reported under the name
// detect's representative rule picks (in the MCP character set, claimed by
// most servers, lower case, first in byte order).
func looseFinding(cl []shadowClaim, servers []string) engine.Finding {
	count := map[string]map[string]bool{}
	bySkel := map[string]map[string]bool{}
	for _, c := range cl {
		if count[c.name] == nil {
			count[c.name] = map[string]bool{}
		}
		count[c.name][c.server] = true
		k := detect.Skeleton(c.name)
		if bySkel[k] == nil {
			bySkel[k] = map[string]bool{}
		}
		bySkel[k][c.server] = true
	}
	rep := ""
	for n := range count {
		if rep == "" {
			rep = n
			continue
		}
		if ia, ib := detect.InMCPCharset(n), detect.InMCPCharset(rep); ia != ib {
			if ia {
				rep = n
			}
			continue
		}
		// Then the skeleton most servers share, so the group is reported
		// under the name detect reported most of it under.
		if a, b := len(bySkel[detect.Skeleton(n)]), len(bySkel[detect.Skeleton(rep)]); a != b {
			if a > b {
				rep = n
			}
			continue
		}
		if betterRep(n, rep, count) {
			rep = n
		}
	}
	sort.Slice(cl, func(i, j int) bool {
		if cl[i].server != cl[j].server {
			return cl[i].server < cl[j].server
		}
		return cl[i].name < cl[j].name
	})
	var claimants, names []string
	var looks []engine.LookAlike
	seen := map[string]bool{rep: true}
	for _, c := range cl {
		claimants = append(claimants, claimant(c))
		if c.name == rep {
			continue
		}
		kind := CollisionLoose
		switch {
		case detect.Skeleton(c.name) == detect.Skeleton(rep):
			kind = detect.CollisionKind(rep, c.name)
		case !isASCII(c.name) && stripMarks(c.name) != norm.NFC.String(c.name):
			kind = collisionDiacritic
		}
		la := engine.LookAlike{Server: c.server, Name: c.name, Kind: kind}
		if !isASCII(c.name) {
			la.Chars = detect.DescribeRunes(c.name)
		}
		looks = append(looks, la)
		if !seen[c.name] {
			seen[c.name] = true
			names = append(names, c.name)
		}
	}
	sort.Strings(claimants)
	sort.Strings(names)
	var parts []string
	for _, la := range looks {
		p := la.Kind + ": " + la.Name + " on " + la.Server
		if la.Chars != "" {
			p += " (" + la.Chars + ")"
		}
		parts = append(parts, p)
	}
	return engine.Finding{
		ID:    engine.StableID(string(engine.Shadow), rep, engine.JoinSorted(servers), "lookalike", engine.JoinSorted(names)),
		Class: engine.Shadow, Severity: engine.Medium, Subject: rep, Tool: rep, Servers: servers, Collision: CollisionLoose,
		LookAlikes: looks, AcceptHash: canon.Hash([]byte(engine.JoinSorted(claimants))),
		Detail: "look-alike names: " + strings.Join(parts, "; "),
	}
}

// stripMarks removes combining marks (accents) from a name.
func stripMarks(s string) string {
	return norm.NFC.String(strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, norm.NFD.String(s)))
}

func betterRep(a, b string, count map[string]map[string]bool) bool {
	if ia, ib := detect.InMCPCharset(a), detect.InMCPCharset(b); ia != ib {
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

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// namespaceShadows finds tools of different servers that one client
// names the same. A server of a known client is qualified by that client's
// namespace only; one whose client is not known (an inventory) by each.
// Tools with the same bare name are left to exact grouping.
func namespaceShadows(inv *engine.Inventory) []engine.Finding {
	type hit struct {
		claims []shadowClaim
		local  map[string]string // server -> its name in the client
		labels []string
	}
	groups := map[string]*hit{} // claim set -> hit
	var order []string
	for _, ns := range Namespaces {
		byName := map[string][]shadowClaim{}
		local := map[string]string{}
		for _, s := range inv.Servers {
			client, name := clientOf(s)
			if client != "" && client != ns.Client {
				continue
			}
			local[s.Name] = name
			for _, t := range s.Tools {
				n := canon.Strip(t.Name)
				q := ns.Name(name, n)
				byName[q] = append(byName[q], shadowClaim{s.Name, n, t})
			}
		}
		for q, cl := range byName {
			servers := map[string]bool{}
			bare := map[string]bool{}
			for _, c := range cl {
				servers[c.server] = true
				bare[c.name] = true
			}
			if len(servers) < 2 || len(bare) < 2 {
				continue
			}
			sort.Slice(cl, func(i, j int) bool { return cl[i].server+"\x00"+cl[i].name < cl[j].server+"\x00"+cl[j].name })
			var ids []string
			for _, c := range cl {
				ids = append(ids, c.server+"\x00"+c.name)
			}
			k := strings.Join(ids, "\x01")
			h := groups[k]
			if h == nil {
				h = &hit{claims: cl, local: local}
				groups[k] = h
				order = append(order, k)
			}
			h.labels = append(h.labels, ns.Label+" "+q)
		}
	}
	var out []engine.Finding
	for _, k := range order {
		h := groups[k]
		servers := map[string]bool{}
		var claimants, looks = []string{}, []engine.LookAlike{}
		for _, c := range h.claims {
			servers[c.server] = true
			claimants = append(claimants, claimant(c))
			looks = append(looks, engine.LookAlike{Server: c.server, Name: h.local[c.server] + "/" + c.name,
				Kind: "named " + strings.Join(h.labels, ", ")})
		}
		sort.Strings(claimants)
		srv := slices.Sorted(maps.Keys(servers))
		subject := h.labels[0][strings.LastIndexByte(h.labels[0], ' ')+1:]
		out = append(out, engine.Finding{
			ID:    engine.StableID(string(engine.Shadow), subject, engine.JoinSorted(srv), "namespace", engine.JoinSorted(h.labels)),
			Class: engine.Shadow, Severity: engine.Medium, Subject: subject, Tool: subject, Servers: srv, Collision: CollisionNamespace,
			LookAlikes: looks, AcceptHash: canon.Hash([]byte(engine.JoinSorted(claimants))),
			Detail: "one name in the client's tool namespace: " + strings.Join(h.labels, "; "),
		})
	}
	return out
}
