// Package jsonv is a strict JSON parser that keeps what a canonical encoder
// and a security tool need and rejects what a lenient parser lets through.
//
// It returns a tree of Values that keeps object members in source order,
// number literals as written (so integers of any size stay exact) and the
// byte offset of every value (so a later error can name a line and column).
//
// Beyond RFC 8259 syntax it rejects, each with a path and a position:
// invalid UTF-8, escapes that leave a lone UTF-16 surrogate, NaN and
// Infinity, numbers outside the float64 range, duplicate object keys
// (a parser-differential attack: one reader keeps the first value, another
// the last) and nesting deeper than MaxDepth. It never panics.
package jsonv

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of arrays and objects accepted.
const MaxDepth = 128

// Kind is the JSON type of a Value.
type Kind uint8

// The JSON kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// String names the kind as error messages do.
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	case Raw:
		return "raw"
	}
	return "unknown"
}

// Value is one JSON value.
type Value struct {
	Kind    Kind
	Bool    bool     // for Bool
	Float   bool     // for Number: written with a fraction or an exponent
	Str     string   // for String the decoded text; for Number the literal
	Items   []Value  // for Array
	Members []Member // for Object, in source order, keys unique
	Off     int      // byte offset of the value in the input
}

// Member is one key and value of an object.
type Member struct {
	Key    string
	KeyOff int
	Value  Value
}

// Get returns the member value for key and whether it exists.
func (v *Value) Get(key string) (*Value, bool) {
	for i := range v.Members {
		if v.Members[i].Key == key {
			return &v.Members[i].Value, true
		}
	}
	return nil, false
}

// Error is a parse error with its position and JSON path.
type Error struct {
	Line, Col int    // 1-based; Col counts bytes
	Path      string // JSON path of the value being read, "$" for the root
	Msg       string
}

func (e *Error) Error() string {
	return fmt.Sprintf("line %d column %d (at %s): %s", e.Line, e.Col, e.Path, e.Msg)
}

// Position returns the 1-based line and byte column of offset off in data.
func Position(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	line = 1 + bytes.Count(data[:off], []byte{'\n'})
	col = off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// positionIn is Position over a document held as a string.
func positionIn(src string, off int) (line, col int) {
	off = min(max(off, 0), len(src))
	line = 1 + strings.Count(src[:off], "\n")
	col = off - strings.LastIndexByte(src[:off], '\n')
	return line, col
}

// Lines maps byte offsets of one document to lines and columns in
// O(log n) each, after one pass over the document. Use it where many
// positions are needed: Position alone rescans from the start every time.
type Lines struct {
	n  int   // the document's length
	nl []int // offsets of '\n', ascending
}

// NewLines indexes the newlines of data.
func NewLines(data []byte) *Lines {
	l := &Lines{n: len(data)}
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break
		}
		l.nl = append(l.nl, i+j)
		i += j + 1
	}
	return l
}

// NewLinesString is NewLines over a document held as a string.
func NewLinesString(src string) *Lines {
	l := &Lines{n: len(src)}
	for i := 0; ; {
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		l.nl = append(l.nl, i+j)
		i += j + 1
	}
	return l
}

// Position returns the 1-based line and byte column of off.
func (l *Lines) Position(off int) (line, col int) {
	if off > l.n {
		off = l.n
	}
	if off < 0 {
		off = 0
	}
	// n = number of newlines before off.
	n := sort.SearchInts(l.nl, off)
	start := 0
	if n > 0 {
		start = l.nl[n-1] + 1
	}
	return n + 1, off - start + 1
}

// Parse parses data as exactly one JSON value. A leading UTF-8 byte order
// mark is skipped.
func Parse(data []byte) (Value, error) {
	return ParseString(string(data))
}

// ParseString is Parse over a document held as a string: the tree's
// strings and number literals are slices of src itself, where Parse
// slices its one copy of data.
func ParseString(src string) (Value, error) {
	p := parser{src: src}
	return p.document()
}

// document parses the whole input as one top-level value: a leading
// byte-order mark skipped, nothing but blanks after the value.
func (p *parser) document() (Value, error) {
	if strings.HasPrefix(p.src, "\xef\xbb\xbf") {
		p.pos = 3
	}
	p.path = append(p.path, pathElem{})
	p.ws()
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.ws()
	if p.pos < len(p.src) {
		return Value{}, p.fail(p.pos, "unexpected data after the top-level value")
	}
	return v, nil
}

type pathElem struct {
	key   string
	index int
	isKey bool
}

type parser struct {
	// src is the document: the strings and number literals of the tree
	// are slices of it (not one allocation per string).
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
// wastes little and a large one allocates rarely.
const maxSlab = 1024

// members and items copy a finished object's members or an array's items
// into their slab (fromSlab) and return the copy.
func (p *parser) members(ms []Member) []Member { return fromSlab(&p.mslab, &p.mnext, ms) }
func (p *parser) items(vs []Value) []Value     { return fromSlab(&p.islab, &p.inext, vs) }

// fromSlab copies src into *slab and returns the copy, with its capacity
// limited so an append by a caller never writes into a neighbour; a
// large src gets a slice of its own. *next is the size of the next slab.
func fromSlab[T any](slab *[]T, next *int, src []T) []T {
	n := len(src)
	if n > maxSlab/8 {
		out := make([]T, n)
		copy(out, src)
		return out
	}
	if len(*slab) < n {
		*next = min(max(2**next, 8, n), maxSlab)
		*slab = make([]T, *next)
	}
	out := (*slab)[:n:n]
	copy(out, src)
	*slab = (*slab)[n:]
	return out
}

// AppendKey appends one object key to a path being built.
func AppendKey(b *strings.Builder, key string) {
	if IsPathIdent(key) {
		b.WriteByte('.')
		b.WriteString(key)
		return
	}
	b.WriteByte('[')
	b.WriteString(strconv.Quote(key))
	b.WriteByte(']')
}

// IsPathIdent reports a key written with a dot in a path (".key"), not
// quoted ("[\"key\"]").
func IsPathIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case r >= '0' && r <= '9' && i > 0:
		case r == '-' && i > 0:
		default:
			return false
		}
	}
	return true
}

func (p *parser) pathString() string {
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

func (p *parser) fail(off int, format string, args ...any) *Error {
	line, col := positionIn(p.src, off)
	return &Error{Line: line, Col: col, Path: p.pathString(), Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (Value, error) {
	if p.pos >= len(p.src) {
		if len(p.path) == 1 && p.pos <= 3 {
			return Value{}, p.fail(p.pos, "empty document")
		}
		return Value{}, p.fail(p.pos, "unexpected end of input")
	}
	start := p.pos
	switch c := p.src[p.pos]; c {
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
		if strings.HasPrefix(p.src[p.pos:], "NaN") {
			return Value{}, p.fail(start, "NaN is not a JSON number")
		}
	case 'I':
		if strings.HasPrefix(p.src[p.pos:], "Infinity") {
			return Value{}, p.fail(start, "Infinity is not a JSON number")
		}
	case '-':
		if strings.HasPrefix(p.src[p.pos:], "-Infinity") {
			return Value{}, p.fail(start, "-Infinity is not a JSON number")
		}
		return p.number()
	default:
		if c >= '0' && c <= '9' {
			return p.number()
		}
	}
	return Value{}, p.fail(start, "invalid character %s looking for a value", quoteByte(p.src, p.pos))
}

func quoteByte(data string, pos int) string {
	r, size := utf8.DecodeRuneInString(data[pos:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte 0x%02x", data[pos])
	}
	return strconv.QuoteRune(r)
}

func (p *parser) lit(word string, v Value) (Value, error) {
	if !strings.HasPrefix(p.src[p.pos:], word) {
		return Value{}, p.fail(p.pos, "invalid literal, expected %q", word)
	}
	p.pos += len(word)
	return v, nil
}

func (p *parser) object(depth int) (Value, error) {
	v := Value{Kind: Object, Off: p.pos}
	p.pos++ // {
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		v.Members = []Member{}
		return v, nil
	}
	mark := len(p.mstack)
	var seen map[string]int // built lazily for larger objects
	for {
		ms := p.mstack[mark:]
		if p.pos >= len(p.src) {
			return Value{}, p.fail(p.pos, "unexpected end of input in object")
		}
		if p.src[p.pos] == '}' && len(ms) > 0 {
			return Value{}, p.fail(p.pos, "trailing comma before '}'")
		}
		if p.src[p.pos] != '"' {
			return Value{}, p.fail(p.pos, "invalid character %s, expected a string key", quoteByte(p.src, p.pos))
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
			firstLine, _ := positionIn(p.src, ms[dup].KeyOff)
			p.path = append(p.path, pathElem{key: key, isKey: true})
			return Value{}, p.fail(keyOff, "duplicate key %s (first at line %d)", strconv.Quote(key), firstLine)
		}
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			if p.pos >= len(p.src) {
				return Value{}, p.fail(p.pos, "unexpected end of input in object")
			}
			return Value{}, p.fail(p.pos, "invalid character %s after object key, expected ':'", quoteByte(p.src, p.pos))
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
		if p.pos >= len(p.src) {
			return Value{}, p.fail(p.pos, "unexpected end of input in object")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			p.ws()
		case '}':
			p.pos++
			v.Members = p.members(p.mstack[mark:])
			p.mstack = p.mstack[:mark]
			return v, nil
		default:
			return Value{}, p.fail(p.pos, "invalid character %s after object member, expected ',' or '}'", quoteByte(p.src, p.pos))
		}
	}
}

func (p *parser) array(depth int) (Value, error) {
	v := Value{Kind: Array, Off: p.pos}
	p.pos++ // [
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		v.Items = []Value{}
		return v, nil
	}
	mark := len(p.istack)
	for i := 0; ; i++ {
		if i > 0 && p.pos < len(p.src) && p.src[p.pos] == ']' {
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
		if p.pos >= len(p.src) {
			return Value{}, p.fail(p.pos, "unexpected end of input in array")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			p.ws()
		case ']':
			p.pos++
			v.Items = p.items(p.istack[mark:])
			p.istack = p.istack[:mark]
			return v, nil
		default:
			return Value{}, p.fail(p.pos, "invalid character %s after array element, expected ',' or ']'", quoteByte(p.src, p.pos))
		}
	}
}

func (p *parser) number() (Value, error) {
	start := p.pos
	d := p.src
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

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// str reads a string token starting at the opening quote.
func (p *parser) str() (string, error) {
	start := p.pos
	d := p.src
	i := p.pos + 1
	// Fast path: no escapes, all ASCII printable or valid UTF-8: a slice
	// of the input string, no copy.
	j := i
	var high byte
	for j < len(d) {
		c := d[j]
		if c == '"' {
			if high >= utf8.RuneSelf && !utf8.ValidString(d[i:j]) {
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
			r, size := utf8.DecodeRuneInString(d[i:])
			if r == utf8.RuneError && size <= 1 {
				return "", p.badUTF8(i)
			}
			b = append(b, d[i:i+size]...)
			i += size
		}
	}
}

func (p *parser) badUTF8(from int) error {
	i := from
	for i < len(p.src) {
		r, size := utf8.DecodeRuneInString(p.src[i:])
		if r == utf8.RuneError && size <= 1 {
			return p.fail(i, "invalid UTF-8 byte 0x%02x in string", p.src[i])
		}
		i += size
	}
	return p.fail(from, "invalid UTF-8 in string")
}

// hex4 reads the four hex digits of a \u escape at d[i:].
func hex4[T string | []byte](d T, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for k := i; k < i+4; k++ {
		c := d[k]
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		default:
			return 0, false
		}
	}
	return r, true
}
