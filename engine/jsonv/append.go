package jsonv

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Append writes v back as JSON exactly as parsed: member order, number
// literals as written, strings as decoded (not stripped). Two values give
// the same bytes only if they are the same tree. A client's stored tool
// goes into an inventory this way, and the scan cache keys a descriptor
// on it.
func Append(dst []byte, v *Value) []byte {
	switch v.Kind {
	case Null:
		return append(dst, "null"...)
	case Bool:
		return strconv.AppendBool(dst, v.Bool)
	case Number:
		return append(dst, v.Str...)
	case String:
		return AppendString(dst, v.Str)
	case Array:
		dst = append(dst, '[')
		for i := range v.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = Append(dst, &v.Items[i])
		}
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		for i := range v.Members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, v.Members[i].Key)
			dst = append(dst, ':')
			dst = Append(dst, &v.Members[i].Value)
		}
		return append(dst, '}')
	}
	panic(fmt.Sprintf("jsonv: unknown JSON kind %d", v.Kind))
}

// AppendString writes s as a JSON string: every rune raw but what JSON
// requires escaped (invalid UTF-8, which jsonv never produces, as U+FFFD).
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return append(dst, '"')
}
