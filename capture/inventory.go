package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/redact"
)

// Document renders the captured servers (results without Err) as an
// inventory the engine reads:
//
//	{"servers": [{"name", "transport", "command", "args", "url", "env_keys", "header_keys", "launch_fields", "tools"}]}
//
// name and transport are the config's, so a pin made from the inventory
// and one made from the config agree on every server's launch; args go
// through redact.Args and the URL through redact.URL, exactly
// as written in the config (references unresolved); env_keys and
// header_keys list the config's key names, never values, which the engine
// reads into the launch config. tools holds each
// tool exactly as the server sent it. Servers are sorted by name, tools
// are in the server's order, and the output is indented with two spaces
// and ends in a newline: the same capture gives the same bytes.
func Document(results []*Result) ([]byte, error) {
	var ok []*Result
	for _, r := range results {
		if r != nil && r.Err == nil && r.Server != nil {
			ok = append(ok, r)
		}
	}
	sort.SliceStable(ok, func(i, j int) bool { return ok[i].Server.Name < ok[j].Server.Name })
	var b bytes.Buffer
	b.WriteString(`{"servers":[`)
	for i, r := range ok {
		s := r.Server
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":`)
		writeJSON(&b, s.Name)
		tr := s.Transport
		if tr == "" {
			tr = "unknown"
		}
		b.WriteString(`,"transport":`)
		writeJSON(&b, tr)
		if s.Command != "" {
			b.WriteString(`,"command":`)
			writeJSON(&b, s.Command)
		}
		if s.Args != nil {
			b.WriteString(`,"args":`)
			writeJSON(&b, redact.Args(s.Args))
		}
		if s.URL != "" {
			b.WriteString(`,"url":`)
			writeJSON(&b, redact.URL(s.URL))
		}
		writeKeys(&b, "env_keys", sortedKeys(s.EnvKeys, s.Env))
		writeKeys(&b, "header_keys", sortedKeys(s.HeaderKeys, s.Headers))
		writeLaunchFields(&b, s.Extra)
		b.WriteString(`,"tools":[`)
		for j, t := range r.Tools {
			if j > 0 {
				b.WriteByte(',')
			}
			b.Write(t)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("rendering the inventory: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// sortedKeys is keys when set, else the sorted keys of m.
func sortedKeys(keys []string, m map[string]string) []string {
	if len(keys) > 0 {
		return keys
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// writeLaunchFields writes "launch_fields": the client launch fields
// (cwd, trust, headersHelper...) redacted as a pin records them, so a scan
// of the inventory compares them with the pin instead of finding them gone.
func writeLaunchFields(b *bytes.Buffer, extra map[string]string) {
	first := true
	for _, name := range launch.ExtraFields {
		v := extra[name]
		if v == "" {
			continue
		}
		if first {
			b.WriteString(`,"launch_fields":{`)
			first = false
		} else {
			b.WriteByte(',')
		}
		writeJSON(b, name)
		b.WriteByte(':')
		writeJSON(b, launch.RedactExtra(name, v))
	}
	if !first {
		b.WriteByte('}')
	}
}

// writeKeys writes "field": {"KEY": "", ...}: the key names, never a value.
func writeKeys(b *bytes.Buffer, field string, keys []string) {
	if len(keys) == 0 {
		return
	}
	b.WriteString(`,"` + field + `":[`)
	for j, k := range keys {
		if j > 0 {
			b.WriteByte(',')
		}
		writeJSON(b, k)
	}
	b.WriteByte(']')
}

// writeJSON writes v without HTML escaping (a description's "<" stays "<").
func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // strings and string slices cannot fail
	b.Truncate(b.Len() - 1)
}

// Difference is how the tool list a server gave one clientInfo identity
// differs from the list it gave the baseline identity. A server must not
// vary its tools by client: any difference is a bait-and-switch.
type Difference struct {
	Server   string
	Baseline string // the identity of the inventory's capture
	Identity string
	Added    []string // tools only Identity was shown
	Removed  []string // tools only Baseline was shown
	Changed  []Changed
}

// Changed names a tool both were shown and the descriptor fields that differ.
type Changed struct {
	Tool   string
	Fields []string
}

// Empty reports whether the two lists agree.
func (d *Difference) Empty() bool {
	return len(d.Added) == 0 && len(d.Removed) == 0 && len(d.Changed) == 0
}

// Compare compares two successful captures of one server. Tools are
// compared as a format-2 pin compares them: every field but _meta, in
// canonical form.
func Compare(base, other *Result) (*Difference, error) {
	d := &Difference{Server: base.Server.Name, Baseline: base.Identity, Identity: other.Identity}
	a, err := descriptors(base)
	if err != nil {
		return nil, err
	}
	b, err := descriptors(other)
	if err != nil {
		return nil, err
	}
	for name, da := range a {
		db, ok := b[name]
		if !ok {
			d.Removed = append(d.Removed, name)
			continue
		}
		if da.Hash != db.Hash {
			d.Changed = append(d.Changed, Changed{Tool: name, Fields: changedFields(da, db)})
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			d.Added = append(d.Added, name)
		}
	}
	sort.Strings(d.Added)
	sort.Strings(d.Removed)
	sort.Slice(d.Changed, func(i, j int) bool { return d.Changed[i].Tool < d.Changed[j].Tool })
	return d, nil
}

func descriptors(r *Result) (map[string]pin.Descriptor, error) {
	doc, err := Document([]*Result{{Server: &engine.Server{Name: "server", Transport: "unknown"}, Tools: r.Tools}})
	if err != nil {
		return nil, err
	}
	inv, err := inventory.Parse("tools/list", doc)
	if err != nil {
		return nil, err
	}
	out := map[string]pin.Descriptor{}
	for _, t := range inv.Tools() {
		out[canon.Strip(t.Name)] = pin.Describe(t, pin.Format2, pin.DefaultExclude())
	}
	return out, nil
}

func changedFields(a, b pin.Descriptor) []string {
	enc := func(d pin.Descriptor) map[string]string {
		m := map[string]string{}
		for i := range d.Value.Members {
			m[d.Value.Members[i].Key] = string(canon.Encode(&d.Value.Members[i].Value))
		}
		return m
	}
	ma, mb := enc(a), enc(b)
	var out []string
	for k, v := range ma {
		if w, ok := mb[k]; !ok || v != w {
			out = append(out, k)
		}
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
