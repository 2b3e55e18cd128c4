package scan

import (
	"encoding/binary"
	"hash/maphash"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

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

// Namespace is how one client names a server's tool to the model:
// prefix, the server's name, sep and the tool's name, every character
// of either name outside [A-Za-z0-9_-] and keep made '_', the whole in
// lower case where lower is set.
type Namespace struct {
	Client string // client id ("claude-code")
	Label  string // for people ("Claude Code")
	Form   string // the shape, "mcp__<server>__<tool>"

	prefix, sep, keep string
	lower             bool
}

// Name is the name the client shows the model for the server's tool.
func (ns *Namespace) Name(server, tool string) string {
	return string(ns.appendName(nil, ns.prefix, sanitizeName(server, ns.keep), sanitizeName(tool, ns.keep)))
}

// appendName appends prefix and the qualified name of a server's and a
// tool's names already sanitized with ns.keep.
func (ns *Namespace) appendName(dst []byte, prefix, server, tool string) []byte {
	n := len(dst)
	dst = append(append(append(append(dst, prefix...), server...), ns.sep...), tool...)
	if ns.lower {
		// Sanitized names are ASCII.
		for i := n; i < len(dst); i++ {
			if c := dst[i]; c >= 'A' && c <= 'Z' {
				dst[i] = c + 'a' - 'A'
			}
		}
	}
	return dst
}

// sanitizeName replaces every character outside [A-Za-z0-9_-] and extra
// with '_'.
func sanitizeName(s, extra string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c < utf8.RuneSelf && strings.IndexByte(extra, c) >= 0) {
			return strings.Map(func(r rune) rune {
				if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || strings.ContainsRune(extra, r)) {
					return r
				}
				return '_'
			}, s)
		}
	}
	return s // nothing to replace (what strings.Map returns too)
}

// Namespaces are the clients whose tool names qualify the tool with its
// server, as their documentation and source describe them (late 2026).
// Clients that show the bare tool name are covered by exact and
// look-alike grouping.
var Namespaces = []Namespace{
	{Client: "claude-code", Label: "Claude Code", Form: "mcp__<server>__<tool>", prefix: "mcp__", sep: "__"},
	{Client: "codex", Label: "Codex CLI", Form: "<server>__<tool>", sep: "__"},
	{Client: "gemini-cli", Label: "Gemini CLI", Form: "<server>__<tool>", sep: "__", keep: "."},
	{Client: "vscode", Label: "VS Code", Form: "mcp_<server>_<tool>", prefix: "mcp_", sep: "_", lower: true},
	{Client: "cursor", Label: "Cursor", Form: "mcp_<server>_<tool>", prefix: "mcp_", sep: "_"},
	{Client: "opencode", Label: "OpenCode", Form: "<server>_<tool>", sep: "_"},
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
func groupShadows(inv *engine.Inventory, found []engine.Finding, c *Cache) []engine.Finding {
	g := shadowGroupsOf(inv, c)
	drop := map[string]bool{} // skeletons of detect findings a loose group replaces
	var out []engine.Finding
	for _, refs := range g.loose {
		cl := claimsOf(inv, refs)
		servers := map[string]bool{}
		for _, c := range cl {
			servers[c.server] = true
			drop[detect.Skeleton(c.name)] = true
		}
		out = append(out, looseFinding(cl, slices.Sorted(maps.Keys(servers))))
	}
	for _, f := range found {
		if f.Class == engine.Shadow && drop[detect.Skeleton(f.Subject)] {
			continue
		}
		out = append(out, f)
	}
	out = append(out, namespaceShadows(inv, g.ns)...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Subject != out[j].Subject {
			return out[i].Subject < out[j].Subject
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// shadowGroups is which tools' names collide in a file: what depends on
// the servers' and tools' names alone, so a change that renames nothing
// (a description, a schema) reuses it. Tools are named by their place,
// so the groups are only for an inventory of the same names in the same
// order (shadowSignature).
type shadowGroups struct {
	loose [][]claimRef // loose groups: two servers or more, two skeletons or more; claims in file order
	ns    []nsGroup    // namespace collisions, in the order they were found
}

// claimRef is a tool by its place: inv.Servers[s].Tools[t].
type claimRef struct{ s, t int32 }

type nsGroup struct {
	claims  []claimRef // sorted by server, then name
	labels  []string   // "<client label> <qualified name>", one per namespace it collides in
	creator int        // the namespace that found it first (whose server names the claims show)
}

func claimOf(inv *engine.Inventory, r claimRef) shadowClaim {
	s := inv.Servers[r.s]
	t := s.Tools[r.t]
	return shadowClaim{s.Name, canon.Strip(t.Name), t}
}

func claimsOf(inv *engine.Inventory, refs []claimRef) []shadowClaim {
	out := make([]shadowClaim, len(refs))
	for i, r := range refs {
		out[i] = claimOf(inv, r)
	}
	return out
}

// shadowSignature is every server's name and client and every tool's
// name, in order, length-prefixed: what shadowGroups depends on.
func shadowSignature(inv *engine.Inventory) string {
	n := 0
	for _, s := range inv.Servers {
		n += len(s.Name) + len(s.Client) + 16
		for _, t := range s.Tools {
			n += len(t.Name) + 4
		}
	}
	b := make([]byte, 0, n)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	for _, s := range inv.Servers {
		str(s.Name)
		str(s.Client)
		b = binary.AppendUvarint(b, uint64(len(s.Tools)))
		for _, t := range s.Tools {
			str(t.Name)
		}
	}
	return string(b)
}

// shadowGroupsOf returns the file's shadow groups, through the cache.
func shadowGroupsOf(inv *engine.Inventory, c *Cache) *shadowGroups {
	if c == nil {
		return computeShadowGroups(inv)
	}
	sig := shadowSignature(inv)
	if e, ok := c.shadows.get(sig, c.gen); ok {
		return e.v
	}
	g := computeShadowGroups(inv)
	c.shadows.put(sig, g, c.gen)
	return g
}

// grouper collects claims by a key; only keys claimed twice or more cost
// more than one map entry.
type grouper struct {
	first map[string]claimRef
	multi map[string][]claimRef
}

func newGrouper(n int) *grouper {
	return &grouper{first: make(map[string]claimRef, n), multi: map[string][]claimRef{}}
}

func (g *grouper) add(k string, r claimRef) {
	f, ok := g.first[k]
	if !ok {
		g.first[k] = r
		return
	}
	if g.multi[k] == nil {
		g.multi[k] = []claimRef{f}
	}
	g.multi[k] = append(g.multi[k], r)
}

// groups returns the keys claimed twice or more, in the order of their
// first claim.
func (g *grouper) groups() []string {
	keys := slices.Collect(maps.Keys(g.multi))
	sort.Slice(keys, func(i, j int) bool { return lessRef(g.first[keys[i]], g.first[keys[j]]) })
	return keys
}

// hashGrouper is a grouper of names that are built only for claims
// whose name's hash another claim has: a name claimed once, nearly
// every name, costs a map entry of a hash. Claims whose hashes agree
// are grouped by their names (exact), so a collision of hashes groups
// nothing; exact.groups() are the names claimed twice or more, in the
// order of their first claim, as a grouper of every name gives them.
type hashGrouper struct {
	first   map[uint64]claimRef
	spilled map[uint64]bool // hashes whose first claim is in exact
	exact   *grouper
	name    func(claimRef) string
}

func (g *hashGrouper) add(h uint64, r claimRef) {
	f, ok := g.first[h]
	if !ok {
		g.first[h] = r
		return
	}
	if !g.spilled[h] {
		if g.spilled == nil {
			g.spilled = map[uint64]bool{}
		}
		g.spilled[h] = true
		g.exact.add(g.name(f), f)
	}
	g.exact.add(g.name(r), r)
}

func lessRef(a, b claimRef) bool { return a.s < b.s || a.s == b.s && a.t < b.t }

func computeShadowGroups(inv *engine.Inventory) *shadowGroups {
	out := &shadowGroups{}
	n := 0
	for _, s := range inv.Servers {
		n += len(s.Tools)
	}
	names := make([][]string, len(inv.Servers)) // stripped tool names
	loose := newGrouper(n)
	for si, s := range inv.Servers {
		names[si] = make([]string, len(s.Tools))
		for ti, t := range s.Tools {
			nm := canon.Strip(t.Name)
			names[si][ti] = nm
			loose.add(looseKey(nm), claimRef{int32(si), int32(ti)})
		}
	}
	for _, k := range loose.groups() {
		cl := loose.multi[k]
		skeletons := map[string]bool{}
		for _, r := range cl {
			skeletons[detect.Skeleton(names[r.s][r.t])] = true
		}
		// Fewer than two servers: no shadow; one skeleton: detect's
		// grouping is this one.
		if len(serverNames(inv, cl)) >= 2 && len(skeletons) >= 2 {
			out.loose = append(out.loose, cl)
		}
	}
	clients := make([]string, len(inv.Servers))
	locals := make([]string, len(inv.Servers))
	for si, s := range inv.Servers {
		clients[si], locals[si] = clientOf(s)
	}
	// A namespace's names are equal where their servers' and tools' names
	// are equal once sanitized, joined by its separator and lowered as it
	// lowers them: its prefix changes nothing. So the names are sanitized
	// once for each set of characters kept, and hashed once for each way
	// of joining them, not once per namespace.
	type sanitized struct{ servers, tools []string } // tools: in file order
	type joining struct {
		keep, sep string
		lower     bool
	}
	san := map[string]*sanitized{}
	hashes := map[joining][]uint64{} // in file order
	seed := maphash.MakeSeed()
	var buf []byte
	for i := range Namespaces {
		ns := &Namespaces[i]
		sn := san[ns.keep]
		if sn == nil {
			sn = &sanitized{servers: make([]string, len(inv.Servers)), tools: make([]string, 0, n)}
			for si := range inv.Servers {
				sn.servers[si] = sanitizeName(locals[si], ns.keep)
				for _, nm := range names[si] {
					sn.tools = append(sn.tools, sanitizeName(nm, ns.keep))
				}
			}
			san[ns.keep] = sn
		}
		j := joining{ns.keep, ns.sep, ns.lower}
		if hashes[j] != nil {
			continue
		}
		hs := make([]uint64, 0, n)
		k := 0
		for si := range inv.Servers {
			for range names[si] {
				buf = ns.appendName(buf[:0], "", sn.servers[si], sn.tools[k])
				hs = append(hs, maphash.Bytes(seed, buf))
				k++
			}
		}
		hashes[j] = hs
	}
	found := map[string]int{} // claim set -> index in out.ns
	for nsi := range Namespaces {
		ns := &Namespaces[nsi]
		hs := hashes[joining{ns.keep, ns.sep, ns.lower}]
		byName := hashGrouper{first: make(map[uint64]claimRef, n), exact: newGrouper(0), name: func(r claimRef) string {
			return ns.Name(locals[r.s], names[r.s][r.t])
		}}
		k := 0
		for si, s := range inv.Servers {
			if clients[si] != "" && clients[si] != ns.Client {
				k += len(s.Tools)
				continue
			}
			for ti := range s.Tools {
				byName.add(hs[k], claimRef{int32(si), int32(ti)})
				k++
			}
		}
		for _, q := range byName.exact.groups() {
			cl := byName.exact.multi[q]
			bare := map[string]bool{}
			for _, r := range cl {
				bare[names[r.s][r.t]] = true
			}
			if len(serverNames(inv, cl)) < 2 || len(bare) < 2 {
				continue
			}
			id := func(r claimRef) string { return inv.Servers[r.s].Name + "\x00" + names[r.s][r.t] }
			sort.SliceStable(cl, func(i, j int) bool { return id(cl[i]) < id(cl[j]) })
			ids := make([]string, len(cl))
			for i, r := range cl {
				ids[i] = id(r)
			}
			k := strings.Join(ids, "\x01")
			gi, ok := found[k]
			if !ok {
				gi = len(out.ns)
				found[k] = gi
				out.ns = append(out.ns, nsGroup{claims: cl, creator: nsi})
			}
			out.ns[gi].labels = append(out.ns[gi].labels, ns.Label+" "+q)
		}
	}
	return out
}

// serverNames is the set of server names the claims come from.
func serverNames(inv *engine.Inventory, cl []claimRef) map[string]bool {
	m := make(map[string]bool, 2)
	for _, r := range cl {
		m[inv.Servers[r.s].Name] = true
	}
	return m
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
	if isASCII(s) {
		return s // no marks, and normal in every form
	}
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

// namespaceShadows reports the namespace collisions: tools of different
// servers that one client names the same. A server of a known client is
// qualified by that client's namespace only; one whose client is not
// known (an inventory) by each. Tools with the same bare name are left to
// exact grouping.
func namespaceShadows(inv *engine.Inventory, groups []nsGroup) []engine.Finding {
	var out []engine.Finding
	for _, h := range groups {
		local := localNames(inv, &Namespaces[h.creator])
		servers := map[string]bool{}
		var claimants, looks = []string{}, []engine.LookAlike{}
		for _, r := range h.claims {
			c := claimOf(inv, r)
			servers[c.server] = true
			claimants = append(claimants, claimant(c))
			looks = append(looks, engine.LookAlike{Server: c.server, Name: local[c.server] + "/" + c.name,
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

// localNames maps each server a namespace qualifies to its name in the
// client (the last server of a name wins, as a map built in file order).
func localNames(inv *engine.Inventory, ns *Namespace) map[string]string {
	local := map[string]string{}
	for _, s := range inv.Servers {
		client, name := clientOf(s)
		if client != "" && client != ns.Client {
			continue
		}
		local[s.Name] = name
	}
	return local
}
