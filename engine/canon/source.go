package canon

import "github.com/descriptorpin/descriptorpin/engine/jsonv"

// SourceMember is one member of the object a SourceEncoder read last:
// its key and the offset of its value in the source text.
type SourceMember struct {
	Key string
	Off int
}

// A SourceEncoder writes stored JSON text in canonical form without
// building its tree: in one pass over the text, the bytes Append gives
// for the value jsonv.Parse would return. It reads text that is sorted
// already, such as a pin's stored descriptors, and reuses its buffers
// from one value to the next.
type SourceEncoder struct {
	// Buf is the canonical form of the last value read.
	Buf []byte
	// Top lists, when the last value read is an object, its members in
	// order.
	Top []SourceMember
}

// Encode reads the JSON value that starts at src[off] (no whitespace
// before it), nested at depth as jsonv counts it (0: a document's root),
// sets Buf to its canonical form and Top to its members, and returns the
// offset just past it. What follows the value is the caller's to check.
//
// ok is false wherever jsonv.Parse would reject the value at that depth
// (syntax, invalid UTF-8, lone surrogates, numbers outside float64,
// nesting past jsonv.MaxDepth), and also where the keys of an object
// are not in strictly ascending order, so that duplicate keys are
// rejected too. Then Buf and Top mean nothing, and the caller takes the
// tree path (jsonv.Parse, Append), which reports what is wrong.
func (e *SourceEncoder) Encode(src string, off, depth int) (end int, ok bool) {
	e.Buf = e.Buf[:0]
	e.Top = e.Top[:0]
	return e.value(src, off, depth, true)
}

func (e *SourceEncoder) value(src string, i, depth int, top bool) (int, bool) {
	if i >= len(src) {
		return i, false
	}
	switch c := src[i]; c {
	case '{':
		if depth >= jsonv.MaxDepth {
			return i, false
		}
		return e.object(src, i, depth+1, top)
	case '[':
		if depth >= jsonv.MaxDepth {
			return i, false
		}
		return e.array(src, i, depth+1)
	case '"':
		s, end, ok := jsonv.ReadString(src, i)
		if !ok {
			return i, false
		}
		e.Buf = AppendString(e.Buf, Strip(s))
		return end, true
	case 't':
		return e.literal(src, i, "true")
	case 'f':
		return e.literal(src, i, "false")
	case 'n':
		return e.literal(src, i, "null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			lit, isFloat, end, ok := jsonv.ReadNumber(src, i)
			if !ok {
				return i, false
			}
			e.Buf = AppendNumber(e.Buf, lit, isFloat)
			return end, true
		}
	}
	return i, false
}

func (e *SourceEncoder) literal(src string, i int, word string) (int, bool) {
	if len(src)-i < len(word) || src[i:i+len(word)] != word {
		return i, false
	}
	e.Buf = append(e.Buf, word...)
	return i + len(word), true
}

func (e *SourceEncoder) object(src string, i, depth int, top bool) (int, bool) {
	e.Buf = append(e.Buf, '{')
	i = jsonv.SkipSpace(src, i+1)
	if i < len(src) && src[i] == '}' {
		e.Buf = append(e.Buf, '}')
		return i + 1, true
	}
	prev := ""
	for n := 0; ; n++ {
		key, end, ok := jsonv.ReadString(src, i)
		if !ok || (n > 0 && key <= prev) {
			return i, false
		}
		prev = key
		i = jsonv.SkipSpace(src, end)
		if i >= len(src) || src[i] != ':' {
			return i, false
		}
		i = jsonv.SkipSpace(src, i+1)
		if n > 0 {
			e.Buf = append(e.Buf, ',')
		}
		e.Buf = AppendString(e.Buf, key)
		e.Buf = append(e.Buf, ':')
		if top {
			e.Top = append(e.Top, SourceMember{Key: key, Off: i})
		}
		if i, ok = e.value(src, i, depth, false); !ok {
			return i, false
		}
		i = jsonv.SkipSpace(src, i)
		if i >= len(src) {
			return i, false
		}
		switch src[i] {
		case ',':
			i = jsonv.SkipSpace(src, i+1)
		case '}':
			e.Buf = append(e.Buf, '}')
			return i + 1, true
		default:
			return i, false
		}
	}
}

func (e *SourceEncoder) array(src string, i, depth int) (int, bool) {
	e.Buf = append(e.Buf, '[')
	i = jsonv.SkipSpace(src, i+1)
	if i < len(src) && src[i] == ']' {
		e.Buf = append(e.Buf, ']')
		return i + 1, true
	}
	for n := 0; ; n++ {
		if n > 0 {
			e.Buf = append(e.Buf, ',')
		}
		var ok bool
		if i, ok = e.value(src, i, depth, false); !ok {
			return i, false
		}
		i = jsonv.SkipSpace(src, i)
		if i >= len(src) {
			return i, false
		}
		switch src[i] {
		case ',':
			i = jsonv.SkipSpace(src, i+1)
		case ']':
			e.Buf = append(e.Buf, ']')
			return i + 1, true
		default:
			return i, false
		}
	}
}

// AppendIndentCanonical appends what AppendIndent(Tree(v), depth, escape)
// writes, for the value v whose canonical form (Encode's output) src
// holds, straight from the text: a loaded pin keeps its descriptors in
// that form and writes them without parsing them. ok is false, and dst
// is returned as it was, if src is not such text (the caller then
// parses it).
func AppendIndentCanonical(dst []byte, src string, depth int, escape func(rune) bool) ([]byte, bool) {
	out, end, ok := indentCanonical(dst, src, 0, depth, escape)
	if !ok || end != len(src) {
		return dst, false
	}
	return out, true
}

func indentCanonical(dst []byte, src string, i, depth int, escape func(rune) bool) ([]byte, int, bool) {
	if i >= len(src) {
		return dst, i, false
	}
	switch c := src[i]; c {
	case '{', '[':
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		if i+1 < len(src) && src[i+1] == closing {
			return append(dst, c, closing), i + 2, true
		}
		dst = append(dst, c)
		i++
		prev := ""
		for n := 0; ; n++ {
			dst = newline(dst, depth+1)
			if c == '{' {
				key, end, ok := jsonv.ReadString(src, i)
				if !ok || (n > 0 && key <= prev) || end >= len(src) || src[end] != ':' {
					return dst, i, false
				}
				prev = key
				dst = appendEscaped(dst, key, escape)
				dst = append(dst, ':', ' ')
				i = end + 1
			}
			var ok bool
			if dst, i, ok = indentCanonical(dst, src, i, depth+1, escape); !ok || i >= len(src) {
				return dst, i, false
			}
			if src[i] == closing {
				dst = newline(dst, depth)
				return append(dst, closing), i + 1, true
			}
			if src[i] != ',' {
				return dst, i, false
			}
			dst = append(dst, ',')
			i++
		}
	case '"':
		s, end, ok := jsonv.ReadString(src, i)
		if !ok || Strip(s) != s {
			return dst, i, false
		}
		return appendEscaped(dst, s, escape), end, true
	case 't', 'f', 'n':
		for _, w := range []string{"true", "false", "null"} {
			if len(src)-i >= len(w) && src[i:i+len(w)] == w {
				return append(dst, w...), i + len(w), true
			}
		}
	default:
		if lit, isFloat, end, ok := jsonv.ReadNumber(src, i); ok {
			return AppendNumber(dst, lit, isFloat), end, true
		}
	}
	return dst, i, false
}
