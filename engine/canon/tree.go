package canon

import (
	"slices"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// Tree returns the canonical form of v as a value: what parsing Encode(v)
// gives (keys sorted, strings stripped, numbers in canonical form, empty
// arrays and objects non-nil), without encoding and parsing. Parts of v
// that are canonical already are shared with v, not copied; offsets are
// those of v where shared and 0 elsewhere. v is not changed.
func Tree(v *jsonv.Value) jsonv.Value {
	out, _ := tree(v)
	return out
}

// tree returns the canonical form and whether it differs from v.
func tree(v *jsonv.Value) (jsonv.Value, bool) {
	switch v.Kind {
	case jsonv.String:
		if s := Strip(v.Str); len(s) != len(v.Str) {
			return jsonv.Value{Kind: jsonv.String, Str: s}, true
		}
	case jsonv.Number:
		if !v.Float {
			if v.Str == "-0" {
				return jsonv.Value{Kind: jsonv.Number, Str: "0"}, true
			}
			return *v, false
		}
		var buf [32]byte
		b := AppendNumber(buf[:0], v.Str, true)
		if string(b) != v.Str {
			return jsonv.Value{Kind: jsonv.Number, Float: true, Str: string(b)}, true
		}
	case jsonv.Array:
		if v.Items == nil {
			return jsonv.Value{Kind: jsonv.Array, Items: []jsonv.Value{}}, true
		}
		var items []jsonv.Value
		for i := range v.Items {
			c, changed := tree(&v.Items[i])
			if changed && items == nil {
				items = make([]jsonv.Value, len(v.Items))
				copy(items, v.Items[:i])
			}
			if items != nil {
				items[i] = c
			}
		}
		if items != nil {
			return jsonv.Value{Kind: jsonv.Array, Items: items}, true
		}
	case jsonv.Object:
		if v.Members == nil {
			return jsonv.Value{Kind: jsonv.Object, Members: []jsonv.Member{}}, true
		}
		var ms []jsonv.Member
		for i := range v.Members {
			c, changed := tree(&v.Members[i].Value)
			if changed && ms == nil {
				ms = make([]jsonv.Member, len(v.Members))
				copy(ms, v.Members[:i])
			}
			if ms != nil {
				ms[i] = jsonv.Member{Key: v.Members[i].Key, Value: c}
			}
		}
		if !sortedKeys(v.Members) {
			if ms == nil {
				ms = slices.Clone(v.Members)
			}
			slices.SortFunc(ms, func(a, b jsonv.Member) int { return strings.Compare(a.Key, b.Key) })
		}
		if ms != nil {
			return jsonv.Value{Kind: jsonv.Object, Members: ms}, true
		}
	}
	return *v, false
}
