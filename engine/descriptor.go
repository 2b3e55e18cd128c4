package engine

import (
	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// Pin formats.
const (
	Format1 = 1 // the original's: name, description, input_schema
	Format2 = 2 // every field except the excluded ones (by default _meta)
)

// DefaultExclude is the field set format 2 leaves out of the pinned
// descriptor: _meta is protocol metadata a client never shows the model.
var DefaultExclude = []string{"_meta"}

// Descriptor is a tool's pinned form: the canonical bytes and their hash.
type Descriptor struct {
	Value  jsonv.Value // normalised object, strings not yet stripped
	Canon  []byte
	Hash   string // lower-case hex SHA-256 of Canon
	Digest string // Hash[:12]
}

// DescribeTool builds the pinned descriptor of t for the pin format.
// Format 1 keeps name, description and input_schema (missing ones become
// "", "" and {}). Format 2 keeps every field but those in exclude, reads
// inputSchema and outputSchema as input_schema and output_schema, and
// fills the same three defaults, so a tool with only those fields has the
// same hash in both formats.
func DescribeTool(t *Tool, format int, exclude []string) Descriptor {
	obj := jsonv.Value{Kind: jsonv.Object}
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
		skip := map[string]bool{"name": true, "description": true, "input_schema": true, "inputSchema": true}
		for _, e := range exclude {
			skip[e] = true
		}
		for _, m := range t.Raw.Members {
			k := m.Key
			if k == "outputSchema" {
				k = "output_schema"
			}
			if skip[m.Key] || skip[k] {
				continue
			}
			add(k, m.Value)
		}
	}
	c := canon.Encode(&obj)
	h := canon.Hash(c)
	return Descriptor{Value: obj, Canon: c, Hash: h, Digest: h[:12]}
}
