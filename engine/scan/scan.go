// Package scan ties the engine's rooms together: it compares an inventory
// with a pin (engine/pin), runs the detectors (engine/detect) and the
// launch rules (engine/launch), applies the pin's acceptances and returns
// the Report the report package renders.
package scan

import (
	"io/fs"
	"math/big"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// MaxChanges caps the change blocks listed for one mutated tool.
const MaxChanges = 20

// Report is the result of a scan: what is reported and what a pin's
// acceptances silenced.
type Report struct {
	File      string
	Rules     detect.RuleSet
	PinFormat int // 0 when no pin was used
	Findings  []engine.Finding
	Accepted  []engine.Finding
	// Notes say what a scan could not check, one line each, such as
	// "server x: values not compared: pinned on another host". They are
	// not findings (they do not fail a scan) and are never silent.
	Notes []string
}

// ScanOptions selects what a scan does.
type ScanOptions struct {
	Rules detect.RuleSet
	// Classes limits the scan to these classes; nil means all.
	Classes []engine.Class
	// FileMode is the scanned file's mode, for the writable_config rule;
	// zero skips it.
	FileMode fs.FileMode
	// Cache, when set, keeps each tool's pinned-form hash and POISON
	// finding, and each file's shadow groups, across scans (see Cache);
	// the report is the same without it.
	Cache *Cache
	// ToolsOnly scans a client's tool source (a cache or a log): it holds
	// what servers sent, not how they were launched, so launch configs
	// are not compared and servers are never ADDED or REMOVED as such.
	ToolsOnly bool
	// Key is the key of the launch value digests (the per-host key the CLI
	// and the service read with internal/hostkey); nil compares no values
	// and notes it for every server whose launch hides some.
	Key launch.Key
}

func (o ScanOptions) wants(c engine.Class) bool {
	if o.Classes == nil {
		return true
	}
	for _, x := range o.Classes {
		if x == c {
			return true
		}
	}
	return false
}

// Scan compares an inventory with a pin (nil for static checks only) and
// runs the detectors. Findings come in the original's report order:
// MUTATION by key, ADDED and REMOVED interleaved by key, SHADOW by name,
// POISON and TRANSPORT in file order.
func Scan(inv *engine.Inventory, pn *pin.Pin, opt ScanOptions) *Report {
	if opt.Rules == "" {
		opt.Rules = detect.RulesDefault
	}
	r := &Report{File: inv.File, Rules: opt.Rules}
	var kn *known
	var tools []*engine.Tool
	if opt.Cache != nil {
		opt.Cache.begin()
		defer opt.Cache.end(inv.File)
		tools = inv.Tools()
		kn = opt.Cache.know(inv.File, tools)
	}
	var poisoned func() []engine.Finding
	later := newHashesLater() // accept, for detection started before it is known
	if opt.wants(engine.Poison) && opt.Cache == nil {
		// Detection, most of a scan, runs beside the rest; its findings'
		// accept hashes wait for compare's (waitForHashes).
		var hash detect.ToolHash
		if waitForHashes {
			hash = later.get
		}
		poisoned = startPoisons(inv, opt.Rules, hash)
	}
	var all []engine.Finding
	var accept detect.ToolHash // the tools' accept hashes, when compare has them (see acceptHashes)
	if pn != nil {
		r.PinFormat = pn.Format
		var notes []string
		all = append(all, compare(inv, pn, opt, kn, &notes, func(h detect.ToolHash) { accept = h; later.set(h) })...)
		r.Notes = notes
	}
	later.set(accept) // when compare did not: detection must not wait for it
	if opt.wants(engine.Shadow) {
		sh := detect.ShadowsHashed(inv, opt.Rules, accept)
		if opt.Rules != detect.RulesReference {
			sh = groupShadows(inv, sh, opt.Cache)
		}
		all = append(all, sh...)
	}
	if opt.wants(engine.Poison) {
		if opt.Cache != nil {
			all = append(all, opt.Cache.poisonTools(inv, tools, kn, opt.Rules, accept)...)
		} else {
			if p := poisoned(); len(all) == 0 {
				all = p // not copied: nothing came before it
			} else {
				all = append(all, p...)
			}
		}
	}
	if opt.wants(engine.Transport) && !opt.ToolsOnly { // a tool source has no launch line to judge
		all = append(all, transports(inv, opt)...)
	}
	if len(all) > 0 {
		r.Findings = make([]engine.Finding, 0, len(all)) // most are reported
	}
	for i := range all {
		f, acc := applyAcceptances(&all[i], pn, opt.Rules)
		if acc != nil {
			r.Accepted = append(r.Accepted, *acc)
		}
		if f != nil {
			r.Findings = append(r.Findings, *f)
		}
	}
	if len(r.Findings) == 0 {
		r.Findings = nil // as when none was appended
	}
	return r
}

// applyAcceptances splits a finding into what is still reported and what a
// pin accepted. For POISON each signal is accepted on its own. Either is
// f itself when the whole finding goes one way; only a split one is new.
func applyAcceptances(f *engine.Finding, pn *pin.Pin, rs detect.RuleSet) (reported, accepted *engine.Finding) {
	if pn == nil || f.AcceptHash == "" {
		return f, nil
	}
	if pn.Accepted(f.ID, f.AcceptHash) != nil {
		return nil, f
	}
	if f.Class != engine.Poison {
		return f, nil
	}
	if !slices.ContainsFunc(f.Signals, func(s engine.Signal) bool { return pn.Accepted(s.ID, f.AcceptHash) != nil }) {
		return f, nil // nothing accepted: what the split below returns
	}
	keep, acc := *f, *f
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
		return f, nil
	}
	if len(keep.Signals) == 0 {
		return nil, &acc
	}
	return &keep, &acc
}

type scanned struct {
	tool *engine.Tool
	hash string
	// Built only for a tool that differs from the pin: its descriptor
	// and the descriptor's canonical tree.
	desc pin.Descriptor
	tree jsonv.Value
}

// describe fills in the descriptor of a tool that differs from the pin.
// The tree is built from the value, not by parsing the encoding: the
// same value (canon.Tree is what parsing the encoding gives).
func (sc *scanned) describe(pn *pin.Pin) {
	sc.desc = pin.Describe(sc.tool, pn.Format, pn.Exclude)
	sc.tree = canon.Tree(&sc.desc.Value)
}

func compare(inv *engine.Inventory, pn *pin.Pin, opt ScanOptions, kn *known, notes *[]string, hashed func(detect.ToolHash)) []engine.Finding {
	tools := inv.Tools()
	var hashes []string
	if opt.Cache != nil {
		hashes = opt.Cache.hashTools(tools, kn, pn)
	} else {
		hashes = hashTools(tools, pn)
	}
	hashed(acceptHashes(tools, hashes, pn)) // now, for the detection waiting for them
	// Each tool meets its pin entry by a lookup, and only the tools that
	// differ are described; nothing is built for the rest. When a key is
	// listed twice, the last tool of that key is the one compared (as a
	// map from keys to tools would have it): a pin entry's last tool.
	entries := make([]*pin.Tool, len(tools))
	same := make([]bool, len(tools)) // the hash is the entry's
	if kn != nil {
		kn.pinEntries(pn, tools, hashes, entries, same)
	} else {
		for i, t := range tools {
			if pt := pn.ToolOf(t.Server, t.Name); pt != nil {
				entries[i], same[i] = pt, pt.Hash == hashes[i]
			}
		}
	}
	last := make(map[*pin.Tool]int, len(tools))
	var unpinned []int
	for i, pt := range entries {
		if pt == nil {
			unpinned = append(unpinned, i)
			continue
		}
		last[pt] = i
	}
	var muts, addrem []engine.Finding
	if opt.wants(engine.Mutation) {
		for i, pt := range entries {
			if pt == nil || same[i] || last[pt] != i {
				continue
			}
			sc := scanned{tool: tools[i], hash: hashes[i]}
			sc.describe(pn)
			k := sc.tool.Key()
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
		}
	}
	// With the default rules, tools that vanished and tools that appeared
	// are held back until renames are paired (see rename.go), each side
	// in key order, once per key.
	var removedTools []*pin.Tool
	if len(last) < len(pn.Tools) {
		for _, pt := range pn.Tools {
			if _, ok := last[pt]; ok || pn.Tool(pt.Key) != pt {
				continue // present, or a key listed twice: Tool's entry stands for it
			}
			removedTools = append(removedTools, pt)
		}
		sort.SliceStable(removedTools, func(i, j int) bool { return removedTools[i].Key < removedTools[j].Key })
		removedTools = slices.CompactFunc(removedTools, func(a, b *pin.Tool) bool { return a == b })
	}
	var addedTools []scanned
	if len(unpinned) > 0 {
		type keyed struct {
			key string
			i   int
		}
		ks := make([]keyed, len(unpinned))
		for j, i := range unpinned {
			ks[j] = keyed{tools[i].Key(), i}
		}
		sort.SliceStable(ks, func(a, b int) bool { return ks[a].key < ks[b].key })
		for j, k := range ks {
			if j+1 < len(ks) && ks[j+1].key == k.key {
				continue // a later tool of the same key stands for it
			}
			sc := scanned{tool: tools[k.i], hash: hashes[k.i]}
			sc.describe(pn)
			addedTools = append(addedTools, sc)
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

// hashTools returns the pinned-form hash of every tool, in order. Tools
// are independent, so they are hashed on every CPU the process may use,
// each worker with its own buffer; the result does not depend on how.
func hashTools(tools []*engine.Tool, pn *pin.Pin) []string {
	out := make([]string, len(tools))
	parallel(len(tools), 256, func(lo, hi int) {
		var h pin.Hasher
		for i := lo; i < hi; i++ {
			out[i] = h.Hash(tools[i], pn.Format, pn.Exclude)
		}
	})
	return out
}

// poisonChunk is about how many tools one turn of a detection worker
// reads: small enough that the workers finish together.
const poisonChunk = 200

// startPoisons starts the poison detectors over every tool and returns
// the function that waits for their findings. Tools are independent, so
// runs of contiguous tools are read on every CPU but one, each worker
// taking the next run when it is done with one, and the caller's
// goroutine joins them when it waits; the findings are joined in run
// order, the file order detect.Poisons gives over the whole inventory.
func startPoisons(inv *engine.Inventory, rs detect.RuleSet, accept detect.ToolHash) (wait func() []engine.Finding) {
	w := runtime.GOMAXPROCS(0)
	if w <= 1 || len(inv.Tools()) < 512 {
		return func() []engine.Finding { return detect.PoisonsHashed(inv, rs, accept) }
	}
	var runs []*engine.Inventory
	n := poisonChunk // tools in the last run
	for _, s := range inv.Servers {
		for lo := 0; lo < len(s.Tools); {
			if n == poisonChunk {
				runs = append(runs, &engine.Inventory{File: inv.File})
				n = 0
			}
			hi := min(len(s.Tools), lo+poisonChunk-n)
			part := s
			if lo > 0 || hi < len(s.Tools) {
				cp := *s
				cp.Tools = s.Tools[lo:hi]
				part = &cp
			}
			r := runs[len(runs)-1]
			r.Servers = append(r.Servers, part)
			n += hi - lo
			lo = hi
		}
	}
	parts := make([][]engine.Finding, len(runs))
	var next atomic.Int64
	work := func() {
		for i := next.Add(1) - 1; i < int64(len(runs)); i = next.Add(1) - 1 {
			parts[i] = detect.PoisonsHashed(runs[i], rs, accept)
		}
	}
	var wg sync.WaitGroup
	for range w - 1 {
		wg.Go(work)
	}
	return func() []engine.Finding {
		work()
		wg.Wait()
		n := 0
		for _, p := range parts {
			n += len(p)
		}
		if n == 0 {
			return nil
		}
		out := make([]engine.Finding, 0, n)
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
}

// diffDescriptors lists changed fields. The reference rules compare the
// three format-1 fields with Python's == (so 1 and 1.0 are equal) and show a
// changed schema whole; the default rules walk every field and name the
// JSON path of each change inside it.
func diffDescriptors(pinned, cur *jsonv.Value, rs detect.RuleSet) []engine.Change {
	// cur is a descriptor's Tree: strings stripped, keys sorted.
	if rs == detect.RulesReference {
		var out []engine.Change
		for _, f := range []string{"name", "description", "input_schema"} {
			a, _ := pinned.Get(f)
			b, _ := cur.Get(f)
			if a == nil || b == nil || !pyEqual(a, b) {
				out = append(out, engine.Change{Field: f, Path: f, Pinned: showValue(a), Scanned: showValue(b)})
			}
		}
		return out
	}
	var out []engine.Change
	diffValues(&out, "", "", pinned, cur)
	return out
}

func diffValues(out *[]engine.Change, field, path string, a, b *jsonv.Value) {
	if a != nil && b != nil && a.Kind == b.Kind && (a.Kind == jsonv.Object || a.Kind == jsonv.Array) {
		if a.Kind == jsonv.Object {
			names := map[string]bool{}
			for _, m := range a.Members {
				names[m.Key] = true
			}
			for _, m := range b.Members {
				names[m.Key] = true
			}
			sorted := make([]string, 0, len(names))
			for k := range names {
				sorted = append(sorted, k)
			}
			sort.Strings(sorted)
			for _, k := range sorted {
				av, _ := a.Get(k)
				bv, _ := b.Get(k)
				f, p := field, joinPath(path, k)
				if f == "" {
					f = k
				}
				diffValues(out, f, p, av, bv)
			}
			return
		}
		n := max(len(a.Items), len(b.Items))
		for i := 0; i < n; i++ {
			var av, bv *jsonv.Value
			if i < len(a.Items) {
				av = &a.Items[i]
			}
			if i < len(b.Items) {
				bv = &b.Items[i]
			}
			diffValues(out, field, path+"["+strconv.Itoa(i)+"]", av, bv)
		}
		return
	}
	if a != nil && b != nil && string(canon.Encode(a)) == string(canon.Encode(b)) {
		return
	}
	*out = append(*out, engine.Change{Field: field, Path: path, Pinned: showValue(a), Scanned: showValue(b)})
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	var b strings.Builder
	b.WriteString(path)
	jsonv.AppendKey(&b, key)
	return b.String()
}

func showValue(v *jsonv.Value) string {
	if v == nil {
		return engine.Absent
	}
	if v.Kind == jsonv.String {
		return v.Str
	}
	return string(canon.Encode(v))
}

// pyEqual is Python's == over decoded JSON: numbers compare by value
// across int and float, and booleans equal 1 and 0.
func pyEqual(a, b *jsonv.Value) bool {
	an, aok := pyNumber(a)
	bn, bok := pyNumber(b)
	if aok && bok {
		return an.Cmp(bn) == 0
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case jsonv.Null:
		return true
	case jsonv.String:
		return a.Str == b.Str
	case jsonv.Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !pyEqual(&a.Items[i], &b.Items[i]) {
				return false
			}
		}
		return true
	case jsonv.Object:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for _, m := range a.Members {
			bv, ok := b.Get(m.Key)
			if !ok || !pyEqual(&m.Value, bv) {
				return false
			}
		}
		return true
	}
	return false
}

func pyNumber(v *jsonv.Value) (*big.Rat, bool) {
	switch v.Kind {
	case jsonv.Bool:
		if v.Bool {
			return big.NewRat(1, 1), true
		}
		return new(big.Rat), true
	case jsonv.Number:
		r, ok := new(big.Rat).SetString(v.Str)
		return r, ok
	}
	return nil, false
}

func transports(inv *engine.Inventory, opt ScanOptions) []engine.Finding {
	if opt.Rules == detect.RulesReference {
		var out []engine.Finding
		for _, s := range inv.Servers {
			if s.Transport != "stdio" {
				continue
			}
			out = append(out, engine.Finding{
				ID: engine.StableID(string(engine.Transport), s.Name, "stdio_launch"), Class: engine.Transport, Severity: engine.Low,
				Subject: s.Name, Server: s.Name, Rule: "stdio_launch", Transport: s.Transport,
				Detail:     "transport '" + s.Transport + "' flagged, " + launch.TransportNote,
				AcceptHash: launch.Hash(s), Path: s.Path, Line: s.Line,
			})
		}
		return out
	}
	out := launch.Risks(inv, opt.FileMode)
	for _, s := range inv.Servers {
		if !launch.KnownTransport(s.Transport) {
			out = append(out, engine.Finding{
				ID: engine.StableID(string(engine.Transport), s.Name, "unknown_transport", s.Transport), Class: engine.Transport, Severity: engine.Low,
				Subject: s.Name, Server: s.Name, Rule: "unknown_transport", Transport: s.Transport,
				Detail:     "transport '" + s.Transport + "' is not one DescriptorPin knows (stdio, http, sse, streamable-http, ws), so its risk cannot be judged",
				AcceptHash: launch.Hash(s), Path: s.Path, Line: s.Line,
			})
		}
	}
	return out
}

// serverIndexMin is the most servers compareServers looks up one by one
// (a var for the test that holds the two ways to the same findings).
var serverIndexMin = 8

// compareServers reports LAUNCH for changed launch configs and server-level
// ADDED and REMOVED, for pins that record servers (format 2).
func compareServers(inv *engine.Inventory, pn *pin.Pin, opt ScanOptions, notes *[]string) []engine.Finding {
	if pn.Format < pin.Format2 {
		return nil
	}
	var out []engine.Finding
	seen := map[string]bool{}
	// pn.Server(name) is a walk over the pin's servers: for every server
	// of a large inventory, one map instead (the first of a name, as
	// Server finds it).
	var byName map[string]*pin.Server
	if len(inv.Servers) > serverIndexMin {
		byName = make(map[string]*pin.Server, len(pn.Servers))
		for _, ps := range pn.Servers {
			if _, ok := byName[ps.Name]; !ok {
				byName[ps.Name] = ps
			}
		}
	}
	for _, s := range inv.Servers {
		seen[s.Name] = true
		var ps *pin.Server
		if byName != nil {
			ps = byName[s.Name]
		} else {
			ps = pn.Server(s.Name)
		}
		if ps == nil {
			if opt.wants(engine.Added) {
				h := launch.Hash(s)
				out = append(out, engine.Finding{
					ID: engine.StableID(string(engine.Added), "server", s.Name, h), Class: engine.Added, Severity: engine.Medium, Subject: s.Name,
					Server: s.Name, ScannedHash: h, Detail: launch.Detail(s),
					Path: s.Path, Line: s.Line,
				})
			}
			continue
		}
		ch, note := launch.Compare(*ps.Approved(), s, opt.Key)
		if note != "" && opt.wants(engine.Launch) {
			*notes = append(*notes, "server "+s.Name+": "+note)
		}
		if len(ch) == 0 || !opt.wants(engine.Launch) {
			continue
		}
		fields := make([]string, len(ch))
		valueChanged := false
		for i, c := range ch {
			fields[i] = c.Field
			valueChanged = valueChanged || c.Pinned == launch.HiddenPinned || c.Scanned == launch.HiddenScanned
		}
		h := launch.Hash(s)
		ph := launch.Hash(ps.Launch())
		id := engine.StableID(string(engine.Launch), s.Name, ph, h)
		if valueChanged {
			// A hidden value changed: the id changes with the values, so a
			// second change opens a new finding.
			id = engine.StableID(string(engine.Launch), s.Name, ph, h, "values", launch.ValuesDigest(s, opt.Key))
		}
		detail := "launch config changed: " + strings.Join(fields, ", ")
		out = append(out, engine.Finding{
			ID: id, Class: engine.Launch, Severity: engine.High, Subject: s.Name,
			Server: s.Name, PinnedHash: ph, ScannedHash: h, Changes: ch,
			Detail: detail, Path: s.Path, Line: s.Line,
		})
	}
	if opt.wants(engine.Removed) {
		for _, ps := range pn.Servers {
			if !seen[ps.Name] {
				h := launch.Hash(ps.Launch())
				out = append(out, engine.Finding{
					ID: engine.StableID(string(engine.Removed), "server", ps.Name, h), Class: engine.Removed, Severity: engine.Low, Subject: ps.Name,
					Server: ps.Name, PinnedHash: h, Detail: "pinned server is absent now",
				})
			}
		}
	}
	return out
}

// renameSides turns the vanished pin entries and the appeared tools into
// rename candidates over their canonical descriptors.
func renameSides(removed []*pin.Tool, added []scanned) (olds, news []detect.RenameCandidate) {
	for _, pt := range removed {
		olds = append(olds, detect.RenameCandidate{Key: pt.Key, Server: pt.Server, Desc: pt.Descriptor()})
	}
	for i := range added {
		news = append(news, detect.RenameCandidate{Key: added[i].tool.Key(), Server: added[i].tool.Server, Desc: &added[i].tree})
	}
	return olds, news
}
