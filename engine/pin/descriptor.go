// Package pin is the approved state: the pin document in formats 1 and 2,
// building it from an inventory (Build, ToolFrom, ServerFrom), reading and
// verifying it (Load), writing it (Marshal), changing it on purpose
// (Approve, Accept) and saying what changed between two pins (Diff).
//
// An entry's identity is defined once (see Identity): a tool by its key,
// a server by its name, an acceptance by its id. Load rejects two entries
// with one identity, Approve and Accept replace by it, and Diff pairs
// entries by it.
//
// A Pin built by this package is a value: its index is made when it is
// built or loaded, Marshal does not reorder it, and changes (Approve,
// Accept, Merge) return with the pin sorted and indexed again.
package pin

import (
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// Pin formats.
const (
	Format1 = 1 // the original's: name, description, input_schema
	Format2 = 2 // every field except the excluded ones (by default _meta)
)

// DefaultExclude returns the field set format 2 leaves out of the pinned
// descriptor: _meta is protocol metadata a client never shows the model.
// Each call returns a new slice, so no pin shares it.
func DefaultExclude() []string { return []string{"_meta"} }

// Descriptor is a tool's pinned form: the canonical bytes and their hash.
// Its canonical form as a value (keys sorted, strings stripped, what a
// pin stores) is canon.Tree(&Value), built only where it is read (a
// scan's diffs and rename pairing): most callers want the hash alone.
type Descriptor struct {
	Value  jsonv.Value // normalised object, strings not yet stripped
	Canon  []byte
	Hash   string // lower-case hex SHA-256 of Canon
	Digest string // Hash[:12]
}

// Describe builds the pinned descriptor of t for the pin format.
// Format 1 keeps name, description and input_schema (missing ones become
// "", "" and {}). Format 2 keeps every field but those in exclude, reads
// inputSchema and outputSchema as input_schema and output_schema, and
// fills the same three defaults, so a tool with only those fields has the
// same hash in both formats.
func Describe(t *engine.Tool, format int, exclude []string) Descriptor {
	obj := descObject(t, format, exclude)
	c := canon.Encode(&obj)
	h := canon.Hash(c)
	return Descriptor{Value: obj, Canon: c, Hash: h, Digest: h[:12]}
}

// HashInto is Describe's Hash alone: the canonical bytes are appended to
// buf (which is returned, to be reused) and no tree is built. A scan
// compares every tool by it and describes only the tools that differ.
func HashInto(buf []byte, t *engine.Tool, format int, exclude []string) (string, []byte) {
	obj := descObject(t, format, exclude)
	buf = canon.Append(buf[:0], &obj)
	return canon.Hash(buf), buf
}

// A Hasher is HashInto with its buffers (the canonical bytes and the
// descriptor object's members) kept from one tool to the next: a scan
// hashes every tool, one Hasher per goroutine.
type Hasher struct {
	buf     []byte
	members []jsonv.Member
}

// Hash returns Describe(t, format, exclude).Hash.
func (h *Hasher) Hash(t *engine.Tool, format int, exclude []string) string {
	obj := descObjectInto(h.members[:0], t, format, exclude)
	h.buf = canon.Append(h.buf[:0], &obj)
	h.members = obj.Members[:0]
	clear(obj.Members) // hold no tool's values past the call
	return canon.Hash(h.buf)
}

// descObject is the normalised descriptor object of t (strings not yet
// stripped, members in descriptor order).
func descObject(t *engine.Tool, format int, exclude []string) jsonv.Value {
	n := 3
	if format >= Format2 {
		n += len(t.Raw.Members)
	}
	return descObjectInto(make([]jsonv.Member, 0, n), t, format, exclude)
}

// descObjectInto is descObject with its members appended to ms.
func descObjectInto(ms []jsonv.Member, t *engine.Tool, format int, exclude []string) jsonv.Value {
	obj := jsonv.Value{Kind: jsonv.Object, Members: ms}
	add := func(k string, v jsonv.Value) {
		obj.Members = append(obj.Members, jsonv.Member{Key: k, Value: v})
	}
	get := func(k string, def jsonv.Value) jsonv.Value {
		if v, ok := t.Field(k); ok {
			return *v
		}
		return def
	}
	emptyStr := jsonv.Value{Kind: jsonv.String}
	emptyObj := jsonv.Value{Kind: jsonv.Object, Members: []jsonv.Member{}}
	add("name", get("name", emptyStr))
	add("description", get("description", emptyStr))
	add("input_schema", get("input_schema", emptyObj))
	if format >= Format2 {
		for _, m := range t.Raw.Members {
			k := m.Key
			if k == "outputSchema" {
				k = "output_schema"
			}
			if skipped(m.Key, exclude) || skipped(k, exclude) {
				continue
			}
			add(k, m.Value)
		}
	}
	return obj
}

// skipped reports whether format 2 leaves field k out of the extra
// fields: the three it always writes first, and the excluded ones.
func skipped(k string, exclude []string) bool {
	switch k {
	case "name", "description", "input_schema", "inputSchema":
		return true
	}
	for _, e := range exclude {
		if e == k {
			return true
		}
	}
	return false
}
