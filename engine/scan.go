package engine

import (
	"io/fs"
	"math/big"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/redact"
)

// MaxChanges caps the change blocks listed for one mutated tool.
const MaxChanges = 20

// Report is the result of a scan: what is reported and what a pin's
// acceptances silenced.
type Report struct {
	File      string
	Rules     RuleSet
	PinFormat int // 0 when no pin was used
	Findings  []Finding
	Accepted  []Finding
}

// ScanOptions selects what a scan does.
type ScanOptions struct {
	Rules RuleSet
	// Classes limits the scan to these classes; nil means all.
	Classes []Class
	// FileMode is the scanned file's mode, for the writable_config rule;
	// zero skips it.
	FileMode fs.FileMode
}

func (o ScanOptions) wants(c Class) bool {
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
func Scan(inv *Inventory, pin *Pin, opt ScanOptions) *Report {
	if opt.Rules == "" {
		opt.Rules = RulesDefault
	}
	r := &Report{File: inv.File, Rules: opt.Rules}
	var all []Finding
	if pin != nil {
		r.PinFormat = pin.Format
		all = append(all, compare(inv, pin, opt)...)
	}
	if opt.wants(Shadow) {
		all = append(all, shadows(inv, opt.Rules)...)
	}
	if opt.wants(Poison) {
		all = append(all, poisons(inv, opt.Rules)...)
	}
	if opt.wants(Transport) {
		all = append(all, transports(inv, opt)...)
	}
	for _, f := range all {
		if f, acc, ok := applyAcceptances(f, pin); ok {
			if acc != nil {
				r.Accepted = append(r.Accepted, *acc)
			}
			if f != nil {
				r.Findings = append(r.Findings, *f)
			}
		}
	}
	return r
}

// applyAcceptances splits a finding into what is still reported and what a
// pin accepted. For POISON each signal is accepted on its own.
func applyAcceptances(f Finding, pin *Pin) (reported, accepted *Finding, ok bool) {
	if pin == nil || f.AcceptHash == "" {
		return &f, nil, true
	}
	if pin.Accepted(f.ID, f.AcceptHash) != nil {
		return nil, &f, true
	}
	if f.Class != Poison {
		return &f, nil, true
	}
	keep, acc := f, f
	keep.Signals, acc.Signals = nil, nil
	keep.Score, acc.Score = 0, 0
	for _, s := range f.Signals {
		if pin.Accepted(s.ID, f.AcceptHash) != nil {
			acc.Signals = append(acc.Signals, s)
			acc.Score += s.Weight
		} else {
			keep.Signals = append(keep.Signals, s)
			keep.Score += s.Weight
		}
	}
	keep.Severity = PoisonSeverity(keep.Score)
	acc.Severity = PoisonSeverity(acc.Score)
	if len(acc.Signals) == 0 {
		return &f, nil, true
	}
	if len(keep.Signals) == 0 {
		return nil, &acc, true
	}
	return &keep, &acc, true
}

type scanned struct {
	tool *Tool
	desc Descriptor
}

func compare(inv *Inventory, pin *Pin, opt ScanOptions) []Finding {
	cur := map[string]scanned{}
	keys := map[string]bool{}
	for _, t := range inv.Tools() {
		cur[t.Key()] = scanned{t, DescribeTool(t, pin.Format, pin.Exclude)}
		keys[t.Key()] = true
	}
	for _, pt := range pin.Tools {
		keys[pt.Key] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var muts, addrem []Finding
	// With the default rules, tools that vanished and tools that appeared
	// are held back until renames are paired (see rename.go).
	var removedTools []*PinTool
	var addedTools []scanned
	for _, k := range sorted {
		pt := pin.Tool(k)
		sc, has := cur[k]
		switch {
		case pt != nil && has && pt.Hash == sc.desc.Hash:
		case pt != nil && has:
			if !opt.wants(Mutation) {
				continue
			}
			f := Finding{
				Class: Mutation, Severity: High, Subject: k, Server: sc.tool.Server, Tool: sc.tool.Name,
				PinnedHash: pt.Hash, ScannedHash: sc.desc.Hash, Path: sc.tool.Path, Line: sc.tool.Line,
			}
			f.Changes = diffDescriptors(&pt.Descriptor, &sc.desc.Value, opt.Rules)
			if len(f.Changes) > MaxChanges {
				f.ChangesOmitted = len(f.Changes) - MaxChanges
				f.Changes = f.Changes[:MaxChanges]
			}
			f.ID = StableID(string(Mutation), k, pt.Hash, sc.desc.Hash)
			muts = append(muts, f)
		case has:
			addedTools = append(addedTools, sc)
		default:
			removedTools = append(removedTools, pt)
		}
	}
	renamed := map[string]string{}
	if opt.Rules != RulesReference {
		renamed = pairRenames(removedTools, addedTools)
	}
	isNew := map[string]string{} // new key -> old key
	for o, n := range renamed {
		isNew[n] = o
	}
	for _, sc := range addedTools {
		k := sc.tool.Key()
		if old, ok := isNew[k]; ok {
			if !opt.wants(Mutation) {
				continue
			}
			pt := pin.Tool(old)
			f := Finding{
				Class: Mutation, Severity: High, Subject: k, Server: sc.tool.Server, Tool: sc.tool.Name,
				PinnedHash: pt.Hash, ScannedHash: sc.desc.Hash, Path: sc.tool.Path, Line: sc.tool.Line,
				RenamedFrom: old, Detail: "renamed from " + old,
			}
			f.Changes = diffDescriptors(&pt.Descriptor, &sc.desc.Value, opt.Rules)
			if len(f.Changes) > MaxChanges {
				f.ChangesOmitted = len(f.Changes) - MaxChanges
				f.Changes = f.Changes[:MaxChanges]
			}
			f.ID = StableID(string(Mutation), k, pt.Hash, sc.desc.Hash, "renamed-from", old)
			muts = append(muts, f)
			continue
		}
		if !opt.wants(Added) {
			continue
		}
		addrem = append(addrem, Finding{
			ID: StableID(string(Added), k, sc.desc.Hash), Class: Added, Severity: Medium, Subject: k,
			Server: sc.tool.Server, Tool: sc.tool.Name, ScannedHash: sc.desc.Hash, Path: sc.tool.Path, Line: sc.tool.Line,
		})
	}
	for _, pt := range removedTools {
		if _, ok := renamed[pt.Key]; ok || !opt.wants(Removed) {
			continue
		}
		addrem = append(addrem, Finding{
			ID: StableID(string(Removed), pt.Key, pt.Hash), Class: Removed, Severity: Low, Subject: pt.Key,
			Server: pt.Server, Tool: pt.Name, PinnedHash: pt.Hash,
		})
	}
	sort.SliceStable(muts, func(i, j int) bool { return muts[i].Subject < muts[j].Subject })
	var launches []Finding
	for _, f := range compareServers(inv, pin, opt) {
		if f.Class == Launch {
			launches = append(launches, f)
		} else {
			addrem = append(addrem, f)
		}
	}
	sort.SliceStable(addrem, func(i, j int) bool { return addrem[i].Subject < addrem[j].Subject })
	return append(append(muts, launches...), addrem...)
}

// diffDescriptors lists changed fields. The reference rules compare the
// three format-1 fields with Python's == (so 1 and 1.0 are equal) and show a
// changed schema whole; the default rules walk every field and name the
// JSON path of each change inside it.
func diffDescriptors(pinned, cur *jsonv.Value, rs RuleSet) []Change {
	curCanon, _ := jsonv.Parse(canon.Encode(cur)) // strings stripped, keys sorted
	if rs == RulesReference {
		var out []Change
		for _, f := range []string{"name", "description", "input_schema"} {
			a, _ := pinned.Get(f)
			b, _ := curCanon.Get(f)
			if a == nil || b == nil || !pyEqual(a, b) {
				out = append(out, Change{Field: f, Path: f, Pinned: showValue(a), Scanned: showValue(b)})
			}
		}
		return out
	}
	var out []Change
	diffValues(&out, "", "", pinned, &curCanon)
	return out
}

func diffValues(out *[]Change, field, path string, a, b *jsonv.Value) {
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
			diffValues(out, field, path+"["+itoa(i)+"]", av, bv)
		}
		return
	}
	if a != nil && b != nil && string(canon.Encode(a)) == string(canon.Encode(b)) {
		return
	}
	*out = append(*out, Change{Field: field, Path: path, Pinned: showValue(a), Scanned: showValue(b)})
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

// Absent is how a change shows a field missing on one side.
const Absent = "(absent)"

func showValue(v *jsonv.Value) string {
	if v == nil {
		return Absent
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

// shadows groups tool names claimed by two or more servers. The reference
// rules group exact names as written; the default rules group names that
// read alike: equal after trimming, case folding, NFKC or look-alike
// mapping (see shadow.go).
func shadows(inv *Inventory, rs RuleSet) []Finding {
	if rs != RulesReference {
		return lookalikeShadows(inv)
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
	var out []Finding
	for _, n := range names {
		servers := append([]string(nil), claim[n]...)
		sort.Strings(servers)
		var claimants []string
		for _, s := range servers {
			for _, t := range inv.Server(s).Tools {
				if t.Name == n {
					claimants = append(claimants, s+"/"+DescribeTool(t, Format2, DefaultExclude).Hash)
				}
			}
		}
		out = append(out, Finding{
			ID: StableID(string(Shadow), n, joinSorted(servers)), Class: Shadow, Severity: Medium,
			Subject: n, Tool: n, Servers: servers, Collision: "exact",
			AcceptHash: canon.Hash([]byte(joinSorted(claimants))),
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

func poisons(inv *Inventory, rs RuleSet) []Finding {
	var out []Finding
	for _, t := range inv.Tools() {
		sigs := DetectPoison(t, rs)
		if len(sigs) == 0 {
			continue
		}
		key := t.Key()
		f := Finding{Class: Poison, Subject: key, Server: t.Server, Tool: t.Name, Path: t.Path, Line: t.Line}
		names := make([]string, len(sigs))
		for i := range sigs {
			sigs[i].ID = StableID(string(Poison), key, sigs[i].Name)
			f.Score += sigs[i].Weight
			names[i] = sigs[i].Name
		}
		sort.Strings(names)
		f.Signals = sigs
		f.Severity = PoisonSeverity(f.Score)
		f.ID = StableID(string(Poison), key, joinSorted(names))
		f.AcceptHash = DescribeTool(t, Format2, DefaultExclude).Hash
		out = append(out, f)
	}
	return out
}

// TransportNote is the original's explanation of why stdio is flagged.
const TransportNote = "launched as a local subprocess from client config, so config can become command execution"

func transports(inv *Inventory, opt ScanOptions) []Finding {
	if opt.Rules == RulesReference {
		var out []Finding
		for _, s := range inv.Servers {
			if s.Transport != "stdio" {
				continue
			}
			out = append(out, Finding{
				ID: StableID(string(Transport), s.Name, "stdio_launch"), Class: Transport, Severity: Low,
				Subject: s.Name, Server: s.Name, Rule: "stdio_launch", Transport: s.Transport,
				Detail:     "transport '" + s.Transport + "' flagged, " + TransportNote,
				AcceptHash: LaunchHash(s), Path: s.Path, Line: s.Line,
			})
		}
		return out
	}
	out := launchRisks(inv, opt.FileMode)
	for _, s := range inv.Servers {
		if !knownTransports[s.Transport] {
			out = append(out, Finding{
				ID: StableID(string(Transport), s.Name, "unknown_transport", s.Transport), Class: Transport, Severity: Low,
				Subject: s.Name, Server: s.Name, Rule: "unknown_transport", Transport: s.Transport,
				Detail:     "transport '" + s.Transport + "' is not one DescriptorPin knows (stdio, http, sse, streamable-http, ws), so its risk cannot be judged",
				AcceptHash: LaunchHash(s), Path: s.Path, Line: s.Line,
			})
		}
	}
	return out
}

// LaunchHash hashes what a server's launch config says: transport,
// command, args and URL (secrets redacted), env and header key names
// (never values).
func LaunchHash(s *Server) string {
	v := newObj().set("transport", str(s.Transport)).set("command", str(s.Command)).
		set("args", strs(redact.Args(s.Args))).set("url", str(redact.URL(s.URL))).set("env_keys", strs(s.EnvKeys)).
		set("header_keys", strs(s.HeaderKeys))
	return canon.Hash(canon.Encode(&v.v))
}
