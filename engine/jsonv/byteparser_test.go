package jsonv

// The parser as it was before it read its document as a string (commit
// 75b6421, jsonv.go and lazy.go's raw), kept to check the string reader
// against: byteParse and byteParseLazy read data through data[i], as the
// parser did, and build the same tree.

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

func byteParseLazy(data []byte, key string) (Value, error) {
	p := byteParser{data: data, src: string(data), lazy: key, hasLazy: true}
	return p.document()
}

func byteParse(data []byte) (Value, error) {
	p := byteParser{data: data, src: string(data)}
	return p.document()
}

// document parses the whole input as one top-level value: a leading
// byte-order mark skipped, nothing but blanks after the value.
func (p *byteParser) document() (Value, error) {
	if bytes.HasPrefix(p.data, []byte("\xef\xbb\xbf")) {
		p.pos = 3
	}
	p.path = append(p.path, pathElem{})
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.ws()
	if p.pos < len(p.data) {
		return Value{}, p.fail(p.pos, "unexpected data after the top-level value")
	}
	return v, nil
}

type byteParser struct {
	data []byte
	// src is data as one string: the strings and number literals of the
	// tree are slices of it (one copy of the input, not one allocation per
	// string).
	src  string
	pos  int
	path []pathElem // path[0] is the root

	// mstack and istack hold the members and items of the objects and
	// arrays being read (a stack: a nested value is done before its parent
	// goes on); a finished one is copied to exact size into a slab.
	mstack []Member
	istack []Value
	mslab  []Member
	islab  []Value
	mnext  int // size of the next member slab: doubles up to maxSlab
	inext  int

	// lazy names the root object's member ParseLazy leaves unparsed
	// (hasLazy: ParseLazy is reading).
	lazy    string
	hasLazy bool
}

// maxSlab is the most members (or items) one slab allocation holds; the
// first slab holds 8 and each next one twice as many, so a small document

func (p *byteParser) members(ms []Member) []Member { return fromSlab(&p.mslab, &p.mnext, ms) }
func (p *byteParser) items(vs []Value) []Value     { return fromSlab(&p.islab, &p.inext, vs) }

func (p *byteParser) pathString() string {
	var b strings.Builder
	b.WriteByte('$')
	for _, e := range p.path[1:] {
		if e.isKey {
			AppendKey(&b, e.key)
		} else {
			fmt.Fprintf(&b, "[%d]", e.index)
		}
	}
	return b.String()
}

func (p *byteParser) fail(off int, format string, args ...any) *Error {
	line, col := Position(p.data, off)
	return &Error{Line: line, Col: col, Path: p.pathString(), Msg: fmt.Sprintf(format, args...)}
}

func (p *byteParser) ws() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *byteParser) value(depth int) (Value, error) {
	if p.pos >= len(p.data) {
		if len(p.path) == 1 && p.pos <= 3 {
			return Value{}, p.fail(p.pos, "empty document")
		}
		return Value{}, p.fail(p.pos, "unexpected end of input")
	}
	start := p.pos
	switch c := p.data[p.pos]; c {
	case '{':
		if depth >= MaxDepth {
			return Value{}, p.fail(start, "nesting deeper than %d levels", MaxDepth)
		}
		return p.object(depth + 1)
	case '[':
		if depth >= MaxDepth {
			return Value{}, p.fail(start, "nesting deeper than %d levels", MaxDepth)
		}
		return p.array(depth + 1)
	case '"':
		s, err := p.str()
		if err != nil {
			return Value{}, err
		}
		return Value{Kind: String, Str: s, Off: start}, nil
	case 't':
		return p.lit("true", Value{Kind: Bool, Bool: true, Off: start})
	case 'f':
		return p.lit("false", Value{Kind: Bool, Off: start})
	case 'n':
		return p.lit("null", Value{Kind: Null, Off: start})
	case 'N':
		if bytes.HasPrefix(p.data[p.pos:], []byte("NaN")) {
			return Value{}, p.fail(start, "NaN is not a JSON number")
		}
	case 'I':
		if bytes.HasPrefix(p.data[p.pos:], []byte("Infinity")) {
			return Value{}, p.fail(start, "Infinity is not a JSON number")
		}
	case '-':
		if bytes.HasPrefix(p.data[p.pos:], []byte("-Infinity")) {
			return Value{}, p.fail(start, "-Infinity is not a JSON number")
		}
		return p.number()
	default:
		if c >= '0' && c <= '9' {
			return p.number()
		}
	}
	return Value{}, p.fail(start, "invalid character %s looking for a value", byteQuote(p.data, p.pos))
}

func byteQuote(data []byte, pos int) string {
	r, size := utf8.DecodeRune(data[pos:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte 0x%02x", data[pos])
	}
	return strconv.QuoteRune(r)
}

func (p *byteParser) lit(word string, v Value) (Value, error) {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return Value{}, p.fail(p.pos, "invalid literal, expected %q", word)
	}
	p.pos += len(word)
	return v, nil
}

func (p *byteParser) object(depth int) (Value, error) {
	v := Value{Kind: Object, Off: p.pos}
	p.pos++ // {
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		v.Members = []Member{}
		return v, nil
	}
	mark := len(p.mstack)
	var seen map[string]int // built lazily for larger objects
	for {
		ms := p.mstack[mark:]
		if p.pos >= len(p.data) {
			return Value{}, p.fail(p.pos, "unexpected end of input in object")
		}
		if p.data[p.pos] == '}' && len(ms) > 0 {
			return Value{}, p.fail(p.pos, "trailing comma before '}'")
		}
		if p.data[p.pos] != '"' {
			return Value{}, p.fail(p.pos, "invalid character %s, expected a string key", byteQuote(p.data, p.pos))
		}
		keyOff := p.pos
		key, err := p.str()
		if err != nil {
			return Value{}, err
		}
		// Duplicate keys: a linear scan is cheapest for the small objects
		// that dominate real inventories; a map takes over past 16 members.
		if seen == nil && len(ms) >= 16 {
			seen = make(map[string]int, 32)
			for i, m := range ms {
				seen[m.Key] = i
			}
		}
		dup := -1
		if seen != nil {
			if i, ok := seen[key]; ok {
				dup = i
			}
		} else {
			for i := range ms {
				if ms[i].Key == key {
					dup = i
					break
				}
			}
		}
		if dup >= 0 {
			firstLine, _ := Position(p.data, ms[dup].KeyOff)
			p.path = append(p.path, pathElem{key: key, isKey: true})
			return Value{}, p.fail(keyOff, "duplicate key %s (first at line %d)", strconv.Quote(key), firstLine)
		}
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			if p.pos >= len(p.data) {
				return Value{}, p.fail(p.pos, "unexpected end of input in object")
			}
			return Value{}, p.fail(p.pos, "invalid character %s after object key, expected ':'", byteQuote(p.data, p.pos))
		}
		p.pos++
		p.ws()
		p.path = append(p.path, pathElem{key: key, isKey: true})
		var mv Value
		if p.hasLazy && depth == 1 && key == p.lazy {
			mv, err = p.raw()
		} else {
			mv, err = p.value(depth)
		}
		if err != nil {
			return Value{}, err
		}
		p.path = p.path[:len(p.path)-1]
		p.mstack = append(p.mstack, Member{Key: key, KeyOff: keyOff, Value: mv})
		if seen != nil {
			seen[key] = len(p.mstack) - mark - 1
		}
		p.ws()
		if p.pos >= len(p.data) {
			return Value{}, p.fail(p.pos, "unexpected end of input in object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.ws()
		case '}':
			p.pos++
			v.Members = p.members(p.mstack[mark:])
			p.mstack = p.mstack[:mark]
			return v, nil
		default:
			return Value{}, p.fail(p.pos, "invalid character %s after object member, expected ',' or '}'", byteQuote(p.data, p.pos))
		}
	}
}

func (p *byteParser) array(depth int) (Value, error) {
	v := Value{Kind: Array, Off: p.pos}
	p.pos++ // [
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		v.Items = []Value{}
		return v, nil
	}
	mark := len(p.istack)
	for i := 0; ; i++ {
		if i > 0 && p.pos < len(p.data) && p.data[p.pos] == ']' {
			return Value{}, p.fail(p.pos, "trailing comma before ']'")
		}
		p.path = append(p.path, pathElem{index: i})
		iv, err := p.value(depth)
		if err != nil {
			return Value{}, err
		}
		p.path = p.path[:len(p.path)-1]
		p.istack = append(p.istack, iv)
		p.ws()
		if p.pos >= len(p.data) {
			return Value{}, p.fail(p.pos, "unexpected end of input in array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.ws()
		case ']':
			p.pos++
			v.Items = p.items(p.istack[mark:])
			p.istack = p.istack[:mark]
			return v, nil
		default:
			return Value{}, p.fail(p.pos, "invalid character %s after array element, expected ',' or ']'", byteQuote(p.data, p.pos))
		}
	}
}

func (p *byteParser) number() (Value, error) {
	start := p.pos
	d := p.data
	i := p.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	if i >= len(d) || d[i] < '0' || d[i] > '9' {
		return Value{}, p.fail(start, "invalid number: expected a digit")
	}
	if d[i] == '0' {
		i++
		if i < len(d) && d[i] >= '0' && d[i] <= '9' {
			return Value{}, p.fail(start, "invalid number: leading zero")
		}
	} else {
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	isFloat := false
	if i < len(d) && d[i] == '.' {
		isFloat = true
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return Value{}, p.fail(start, "invalid number: expected a digit after the decimal point")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		isFloat = true
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return Value{}, p.fail(start, "invalid number: expected a digit in the exponent")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	lit := p.src[start:i]
	if isFloat {
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil || math.IsInf(f, 0) {
			return Value{}, p.fail(start, "number %s is outside the range of a 64-bit float", clip(lit))
		}
	}
	p.pos = i
	return Value{Kind: Number, Float: isFloat, Str: lit, Off: start}, nil
}

// str reads a string token starting at the opening quote.
func (p *byteParser) str() (string, error) {
	start := p.pos
	d := p.data
	i := p.pos + 1
	// Fast path: no escapes, all ASCII printable or valid UTF-8: a slice
	// of the input string, no copy.
	j := i
	var high byte
	for j < len(d) {
		c := d[j]
		if c == '"' {
			if high >= utf8.RuneSelf && !utf8.Valid(d[i:j]) {
				break
			}
			p.pos = j + 1
			return p.src[i:j], nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		high |= c
		j++
	}
	var b []byte
	b = append(b, d[i:j]...)
	if !utf8.Valid(b) {
		return "", p.badUTF8(i)
	}
	i = j
	for {
		if i >= len(d) {
			return "", p.fail(start, "unterminated string")
		}
		c := d[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return string(b), nil
		case c < 0x20:
			return "", p.fail(i, "control character 0x%02x in string must be escaped", c)
		case c == '\\':
			if i+1 >= len(d) {
				return "", p.fail(start, "unterminated string")
			}
			switch e := d[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
				i += 2
			case 'b':
				b = append(b, '\b')
				i += 2
			case 'f':
				b = append(b, '\f')
				i += 2
			case 'n':
				b = append(b, '\n')
				i += 2
			case 'r':
				b = append(b, '\r')
				i += 2
			case 't':
				b = append(b, '\t')
				i += 2
			case 'u':
				r, ok := hex4(d, i+2)
				if !ok {
					return "", p.fail(i, "invalid \\u escape")
				}
				esc := i
				i += 6
				if utf16.IsSurrogate(r) {
					if r >= 0xDC00 {
						return "", p.fail(esc, "lone surrogate escape \\u%04x", r)
					}
					r2, ok2 := rune(0), false
					if i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
						r2, ok2 = hex4(d, i+2)
					}
					if !ok2 || r2 < 0xDC00 || r2 > 0xDFFF {
						return "", p.fail(esc, "lone surrogate escape \\u%04x", r)
					}
					r = utf16.DecodeRune(r, r2)
					i += 6
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", p.fail(i, "invalid escape \\%s", string(rune(e)))
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size <= 1 {
				return "", p.badUTF8(i)
			}
			b = append(b, d[i:i+size]...)
			i += size
		}
	}
}

func (p *byteParser) badUTF8(from int) error {
	i := from
	for i < len(p.data) {
		r, size := utf8.DecodeRune(p.data[i:])
		if r == utf8.RuneError && size <= 1 {
			return p.fail(i, "invalid UTF-8 byte 0x%02x in string", p.data[i])
		}
		i += size
	}
	return p.fail(from, "invalid UTF-8 in string")
}

func (p *byteParser) raw() (Value, error) {
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
