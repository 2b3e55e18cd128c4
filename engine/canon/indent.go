package canon

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// AppendIndent appends v as Python's json.dumps(v, indent=2,
// sort_keys=True) writes it, without a trailing newline. Strings are
// written as they are (not stripped); characters for which escape reports
// true are written as \uXXXX escapes (surrogate pairs beyond the BMP);
// escape is not asked about printable ASCII (U+0020..U+007E), which is
// written as it is ('"' and '\' escaped as ever).
// Numbers use the canonical number form.
func AppendIndent(dst []byte, v *jsonv.Value, depth int, escape func(rune) bool) []byte {
	return appendIndent(dst, v, depth, escape, false)
}

// AppendIndentTree is AppendIndent of Tree(v) without building it: string
// values are stripped as they are written. A pin writes the descriptors
// it built this way.
func AppendIndentTree(dst []byte, v *jsonv.Value, depth int, escape func(rune) bool) []byte {
	return appendIndent(dst, v, depth, escape, true)
}

// AppendIndentString is AppendIndent of the string s.
func AppendIndentString(dst []byte, s string, escape func(rune) bool) []byte {
	return appendEscaped(dst, s, escape)
}

func appendIndent(dst []byte, v *jsonv.Value, depth int, escape func(rune) bool, strip bool) []byte {
	switch v.Kind {
	case jsonv.String:
		if strip {
			return appendEscaped(dst, Strip(v.Str), escape)
		}
		return appendEscaped(dst, v.Str, escape)
	case jsonv.Array:
		if len(v.Items) == 0 {
			return append(dst, '[', ']')
		}
		dst = append(dst, '[')
		for i := range v.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = newline(dst, depth+1)
			dst = appendIndent(dst, &v.Items[i], depth+1, escape, strip)
		}
		dst = newline(dst, depth)
		return append(dst, ']')
	case jsonv.Object:
		if len(v.Members) == 0 {
			return append(dst, '{', '}')
		}
		dst = append(dst, '{')
		if sortedKeys(v.Members) {
			// The common case for a stored pin: no allocation.
			for i := range v.Members {
				dst = indentMember(dst, &v.Members[i], i, depth, escape, strip)
			}
		} else {
			var small [16]*jsonv.Member
			for i, m := range sortMembers(small[:0], v.Members) {
				dst = indentMember(dst, m, i, depth, escape, strip)
			}
		}
		dst = newline(dst, depth)
		return append(dst, '}')
	}
	return Append(dst, v)
}

func indentMember(dst []byte, m *jsonv.Member, i, depth int, escape func(rune) bool, strip bool) []byte {
	if i > 0 {
		dst = append(dst, ',')
	}
	dst = newline(dst, depth+1)
	dst = appendEscaped(dst, m.Key, escape)
	dst = append(dst, ':', ' ')
	return appendIndent(dst, &m.Value, depth+1, escape, strip)
}

// indentSpaces is the indent of the deepest lines written in one step.
const indentSpaces = "                                                                "

func newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	if 2*depth <= len(indentSpaces) {
		return append(dst, indentSpaces[:2*depth]...)
	}
	for i := 0; i < depth; i++ {
		dst = append(dst, ' ', ' ')
	}
	return dst
}

func appendEscaped(dst []byte, s string, escape func(rune) bool) []byte {
	if escape == nil {
		return AppendString(dst, s)
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		// Printable ASCII but the quote and the backslash is written as it
		// is, a run at a time: escape is asked only about the rest.
		j := i
		for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f && s[j] != '"' && s[j] != '\\' {
			j++
		}
		dst = append(dst, s[i:j]...)
		if j == len(s) {
			break
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		i = j + size
		switch r {
		case '"':
			dst = append(dst, '\\', '"')
			continue
		case '\\':
			dst = append(dst, '\\', '\\')
			continue
		case '\n':
			dst = append(dst, '\\', 'n')
			continue
		case '\r':
			dst = append(dst, '\\', 'r')
			continue
		case '\t':
			dst = append(dst, '\\', 't')
			continue
		case '\b':
			dst = append(dst, '\\', 'b')
			continue
		case '\f':
			dst = append(dst, '\\', 'f')
			continue
		}
		if r < 0x20 || escape(r) {
			if r > 0xFFFF {
				r1, r2 := utf16.EncodeRune(r)
				dst = appendU(dst, r1)
				dst = appendU(dst, r2)
			} else {
				dst = appendU(dst, r)
			}
			continue
		}
		dst = utf8.AppendRune(dst, r)
	}
	return append(dst, '"')
}

func appendU(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexDigits[(r>>12)&0xf], hexDigits[(r>>8)&0xf], hexDigits[(r>>4)&0xf], hexDigits[r&0xf])
}
