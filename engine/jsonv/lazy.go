package jsonv

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Raw is the kind of a value ParseLazy left unparsed: its Str is the
// value's source text, unchecked. No other function returns it.
const Raw Kind = 6

// ParseLazy is Parse, except that the value of the root object's member
// named key (when the root is an object that has one) is not parsed: it
// is returned as a Value of kind Raw whose Str is its source text (a
// slice of the one string copy of data) and whose Off is its offset.
// When that text is an array whose items are separated as JSON's are,
// its Items are the items, each a Raw value of the same kind (an empty
// array has empty, non-nil Items); otherwise Items is nil.
// Its extent is found by Skip, which checks nothing but the nesting of
// brackets and strings, so the text is untrusted: the caller reads it
// with its own strict reader (ReadString, ReadNumber, or Parse) before
// using it. Everything else is parsed and checked as Parse does.
//
// A pin's tool list is read this way: it is most of a large pin, and a
// reader that checks it entry by entry need not build its tree.
func ParseLazy(data []byte, key string) (Value, error) {
	return ParseLazyString(string(data), key)
}

// ParseLazyString is ParseLazy over a document held as a string: every
// string of the tree, the Raw member's text among them, is a slice of
// src itself, so a caller that read the document into a string keeps
// one copy of it, not two.
func ParseLazyString(src, key string) (Value, error) {
	p := parser{src: src, lazy: key, hasLazy: true}
	return p.document()
}

// raw reads the lazy member's value as Raw. An array is split into its
// items on the way (see ParseLazy).
func (p *parser) raw() (Value, error) {
	if items, end, ok := skipItems(p.src, p.pos); ok {
		v := Value{Kind: Raw, Str: p.src[p.pos:end], Items: items, Off: p.pos}
		p.pos = end
		return v, nil
	}
	end, ok := Skip(p.src, p.pos)
	if !ok {
		return Value{}, p.fail(p.pos, "unterminated or malformed value")
	}
	v := Value{Kind: Raw, Str: p.src[p.pos:end], Off: p.pos}
	p.pos = end
	return v, nil
}

// skipItems skips the array at src[off] item by item (Skip), returning
// each item as a Raw value; ok is false if it is not an array of
// items separated by commas (the items themselves are not checked).
func skipItems(src string, off int) ([]Value, int, bool) {
	if off >= len(src) || src[off] != '[' {
		return nil, off, false
	}
	items := []Value{}
	i := SkipSpace(src, off+1)
	if i < len(src) && src[i] == ']' {
		return items, i + 1, true
	}
	for {
		end, ok := Skip(src, i)
		if !ok {
			return nil, off, false
		}
		items = append(items, Value{Kind: Raw, Str: src[i:end], Off: i})
		i = SkipSpace(src, end)
		if i >= len(src) {
			return nil, off, false
		}
		switch src[i] {
		case ',':
			i = SkipSpace(src, i+1)
		case ']':
			return items, i + 1, true
		default:
			return nil, off, false
		}
	}
}

// Skip returns the offset just past the JSON value that starts at
// src[off] (no leading whitespace), found by matching brackets and
// strings only: it checks neither the syntax nor the text of what it
// skips, and it allocates nothing. ok is false when the value is
// unterminated, its brackets do not balance, or src[off] cannot start a
// value.
func Skip(src string, off int) (end int, ok bool) {
	if off >= len(src) {
		return off, false
	}
	i := off
	switch c := src[i]; {
	case c == '"':
		return skipString(src, i)
	case c == '{' || c == '[':
	case c == ',' || c == ':' || c == '}' || c == ']' || isSpace(c):
		return off, false
	default:
		// A scalar: up to the next delimiter.
		for i < len(src) && !isDelim(src[i]) {
			i++
		}
		return i, true
	}
	depth := 0
	for i < len(src) {
		// Most of a document is whitespace, scalars and strings between
		// brackets: step over what cannot change the depth.
		for i < len(src) && !skipStop[src[i]] {
			i++
		}
		if i >= len(src) {
			break
		}
		switch src[i] {
		case '"':
			e, ok := skipString(src, i)
			if !ok {
				return i, false
			}
			i = e
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
		i++
	}
	return i, false
}

// skipStop marks the bytes Skip stops at inside a container.
var skipStop = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true}

// skipString returns the offset just past the string whose opening
// quote is at src[i]: the first quote after it not escaped by an odd
// run of backslashes.
func skipString(src string, i int) (int, bool) {
	for i++; ; {
		j := strings.IndexByte(src[i:], '"')
		if j < 0 {
			return len(src), false
		}
		q := i + j
		k := q
		for k > i && src[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q + 1, true
		}
		i = q + 1
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isDelim(c byte) bool {
	return c == ',' || c == ':' || c == '}' || c == ']' || c == '{' || c == '[' || c == '"' || isSpace(c)
}

// SkipSpace returns the offset of the first byte at or after off that
// is not JSON whitespace (space, tab, LF, CR).
func SkipSpace(src string, off int) int {
	for off < len(src) && isSpace(src[off]) {
		off++
	}
	return off
}

// ReadString reads the JSON string token that starts at src[off] (its
// opening quote) with Parse's checks: control characters, escapes, lone
// surrogates, invalid UTF-8. It returns the decoded text (a slice of src
// when the token holds no escape, a new string otherwise) and the offset
// just past the closing quote; ok is false wherever Parse would fail.
func ReadString(src string, off int) (s string, end int, ok bool) {
	if off >= len(src) || src[off] != '"' {
		return "", off, false
	}
	i := off + 1
	var high byte
	for j := i; j < len(src); j++ {
		c := src[j]
		if c == '"' {
			if high >= utf8.RuneSelf && !utf8.ValidString(src[i:j]) {
				return "", off, false
			}
			return src[i:j], j + 1, true
		}
		if c == '\\' {
			b, end, ok := DecodeString(nil, src, off)
			return string(b), end, ok
		}
		if c < 0x20 {
			return "", off, false
		}
		high |= c
	}
	return "", off, false
}

// DecodeString is ReadString appending the decoded text to dst (with
// dst's previous content) instead of returning it as a string.
func DecodeString(dst []byte, src string, off int) (out []byte, end int, ok bool) {
	if off >= len(src) || src[off] != '"' {
		return dst, off, false
	}
	i := off + 1
	for i < len(src) {
		// A run of bytes written as they are.
		j := i
		var high byte
		for j < len(src) && src[j] != '"' && src[j] != '\\' && src[j] >= 0x20 {
			high |= src[j]
			j++
		}
		if high >= utf8.RuneSelf && !utf8.ValidString(src[i:j]) {
			return dst, off, false
		}
		dst = append(dst, src[i:j]...)
		if j >= len(src) || src[j] < 0x20 {
			return dst, off, false
		}
		if src[j] == '"' {
			return dst, j + 1, true
		}
		// An escape.
		if j+1 >= len(src) {
			return dst, off, false
		}
		switch e := src[j+1]; e {
		case '"', '\\', '/':
			dst = append(dst, e)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(src, j+2)
			if !ok {
				return dst, off, false
			}
			if utf16.IsSurrogate(r) {
				if r >= 0xDC00 || j+11 >= len(src) || src[j+6] != '\\' || src[j+7] != 'u' {
					return dst, off, false
				}
				r2, ok := hex4(src, j+8)
				if !ok || r2 < 0xDC00 || r2 > 0xDFFF {
					return dst, off, false
				}
				r = utf16.DecodeRune(r, r2)
				j += 6
			}
			dst = utf8.AppendRune(dst, r)
			j += 4
		default:
			return dst, off, false
		}
		i = j + 2
	}
	return dst, off, false
}

// ReadNumber reads the JSON number that starts at src[off] with Parse's
// checks (grammar, the float64 range) and returns its literal, whether
// it has a fraction or an exponent, and the offset just past it; ok is
// false wherever Parse would fail. What follows the number is the
// caller's to check.
func ReadNumber(src string, off int) (lit string, isFloat bool, end int, ok bool) {
	i := off
	if i < len(src) && src[i] == '-' {
		i++
	}
	if i >= len(src) || src[i] < '0' || src[i] > '9' {
		return "", false, off, false
	}
	if src[i] == '0' {
		i++
		if i < len(src) && src[i] >= '0' && src[i] <= '9' {
			return "", false, off, false
		}
	} else {
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	}
	if i < len(src) && src[i] == '.' {
		isFloat = true
		i++
		if i >= len(src) || src[i] < '0' || src[i] > '9' {
			return "", false, off, false
		}
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		isFloat = true
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i >= len(src) || src[i] < '0' || src[i] > '9' {
			return "", false, off, false
		}
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
	}
	lit = src[off:i]
	if isFloat {
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil || math.IsInf(f, 0) {
			return "", false, off, false
		}
	}
	return lit, isFloat, i, true
}
