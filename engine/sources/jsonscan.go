package sources

import "github.com/descriptorpin/descriptorpin/engine/jsonv"

// objectEnd returns the length of the JSON object at the start of b (b[0]
// must be '{'), or -1 when b holds no complete object. It only matches
// braces outside strings; jsonv checks the object itself. Log lines carry
// text after the JSON (Claude Desktop appends "{ metadata: undefined }"),
// so the object has to be cut out before it is parsed.
func objectEnd(b []byte) int {
	if len(b) == 0 || b[0] != '{' {
		return -1
	}
	depth := 0
	inStr, esc := false, false
	for i, c := range b {
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return -1
			}
		}
	}
	return -1
}

// rpcID is a JSON-RPC id as a comparable key: a number by its literal, a
// string prefixed so that 1 and "1" differ.
func rpcID(v *jsonv.Value) (string, bool) {
	switch v.Kind {
	case jsonv.Number:
		return v.Str, true
	case jsonv.String:
		return "s:" + v.Str, true
	}
	return "", false
}
