package pin

import (
	"slices"
	"sort"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Identity is what names an entry of a pin, the one definition Load, the
// changes and Diff use: a tool entry is its key ("server/tool"), a server
// entry "server:" and its name, an acceptance "acceptance:" and the id it
// accepts. Two entries of one pin never share an identity.
func (t *Tool) Identity() string { return t.Key }

// Identity names a server entry; see Tool.Identity.
func (s *Server) Identity() string { return "server:" + s.Name }

// Identity names an acceptance; see Tool.Identity.
func (a *Acceptance) Identity() string { return "acceptance:" + a.ID }

// Pin-level settings Diff reports as re-approved when they change.
const (
	SettingFormat      = "format"
	SettingToolVersion = "tool_version"
	SettingExclude     = "fields.exclude"
)

// Diff says what changed from one pin to the next (old may be nil: every
// entry of cur is added). Entries are paired by Identity and compared on
// every field the pin records, the approval (by, note, at) included:
//
//   - a tool or server only in cur is Added, only in old Removed, and in
//     both but different Reapproved;
//   - an acceptance only in cur is Accepted, only in old Unaccepted; one
//     whose hash changed is both (the old acceptance no longer holds, a
//     new one does); one that differs otherwise is Reapproved;
//   - a change of the format, the tool_version or fields.exclude is
//     Reapproved under SettingFormat, SettingToolVersion or
//     SettingExclude.
//
// ApprovedBy lists who approved what was added, re-approved or accepted.
// Every label is sanitised.
func Diff(old, cur *Pin) *engine.PinChange {
	c := &engine.PinChange{}
	if cur == nil {
		cur = &Pin{}
	} else {
		c.Tools, c.Servers, c.Acceptances = len(cur.Tools), len(cur.Servers), len(cur.Acceptances)
	}
	by := map[string]bool{}
	a, b := entries(old), entries(cur)
	for _, k := range sortedKeys(b) {
		ea, ok := a[k]
		switch {
		case !ok && b[k].acceptance:
			c.Accepted = append(c.Accepted, b[k].label)
		case !ok:
			c.Added = append(c.Added, b[k].label)
		case ea.sig == b[k].sig:
			continue
		case b[k].acceptance && ea.hash != b[k].hash:
			c.Accepted = append(c.Accepted, b[k].label)
			c.Unaccepted = append(c.Unaccepted, ea.label)
		default:
			c.Reapproved = append(c.Reapproved, b[k].label)
		}
		by[b[k].by] = true
	}
	for _, k := range sortedKeys(a) {
		if _, ok := b[k]; ok {
			continue
		}
		if a[k].acceptance {
			c.Unaccepted = append(c.Unaccepted, a[k].label)
		} else {
			c.Removed = append(c.Removed, a[k].label)
		}
	}
	if old != nil {
		if old.Format != cur.Format {
			c.Reapproved = append(c.Reapproved, SettingFormat)
		}
		if old.ToolVersion != cur.ToolVersion {
			c.Reapproved = append(c.Reapproved, SettingToolVersion)
		}
		if !slices.Equal(old.Exclude, cur.Exclude) {
			c.Reapproved = append(c.Reapproved, SettingExclude)
		}
	}
	for k := range by {
		if k != "" {
			c.ApprovedBy = append(c.ApprovedBy, sanitize.Text(k))
		}
	}
	sort.Strings(c.ApprovedBy)
	return c
}

// Empty reports whether a pin change changes nothing.
func Empty(c *engine.PinChange) bool {
	return len(c.Added)+len(c.Removed)+len(c.Reapproved)+len(c.Accepted)+len(c.Unaccepted) == 0
}

type diffEntry struct {
	label      string // what the change lists: the key, "server:name", the acceptance id
	sig        string // every recorded field, joined
	hash       string
	by         string
	acceptance bool
}

func entries(p *Pin) map[string]diffEntry {
	m := map[string]diffEntry{}
	if p == nil {
		return m
	}
	join := func(parts ...string) string {
		n := 0
		for _, s := range parts {
			n += len(s) + 1
		}
		b := make([]byte, 0, n)
		for _, s := range parts {
			b = append(b, s...)
			b = append(b, 0)
		}
		return string(b)
	}
	list := func(ss []string) string {
		if ss == nil {
			return "\x01" // absent differs from empty
		}
		return join(ss...)
	}
	for _, t := range p.Tools {
		m[t.Identity()] = diffEntry{
			label: sanitize.Text(t.Key), by: t.By, hash: t.Hash,
			sig: join(t.Server, t.Name, t.Hash, t.By, t.Note, t.At),
		}
	}
	for _, s := range p.Servers {
		m[s.Identity()] = diffEntry{
			label: sanitize.Text("server:" + s.Name), by: s.By,
			sig: join(s.Transport, s.Command, list(s.Args), s.URL, list(s.EnvKeys), list(s.HeaderKeys), s.By, s.Note, s.At,
				pairs(s.Extra), s.KeyID, pairs(s.Values), list(s.Sources)),
		}
	}
	for _, x := range p.Acceptances {
		m[x.Identity()] = diffEntry{
			label: sanitize.Text(x.ID), by: x.By, hash: x.Hash, acceptance: true,
			sig: join(string(x.Class), x.Subject, x.Signal, x.Hash, x.By, x.Note, x.At),
		}
	}
	return m
}

// pairs joins a map's entries in key order.
func pairs(m map[string]string) string {
	var b []byte
	for _, k := range sortedKeys(m) {
		b = append(append(append(append(b, k...), 0), m[k]...), 0)
	}
	return string(b)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
