// Package canon is the canonical JSON encoder behind every pin hash.
//
// The form is the original DescriptorPin's (pin format 1): the output of
// Python's json.dumps(sort_keys=True, separators=(",", ":"),
// ensure_ascii=False) over a value whose strings were passed through
// str.strip(). Precisely:
//
//   - object keys sorted by Unicode code point, never trimmed;
//   - arrays keep their order;
//   - every string value loses leading and trailing whitespace as Python's
//     str.isspace defines it (which includes U+001C..U+001F, U+0085, U+00A0,
//     U+2000..U+200A, U+2028, U+2029, U+3000, but not U+200B or U+FEFF);
//   - strings escape only '"', '\' and U+0000..U+001F (\n \r \t \b \f short,
//     the rest \u00XX in lower case); everything else is raw UTF-8;
//   - integers keep their exact digits ("-0" becomes "0"); numbers written
//     with a fraction or exponent are floats printed as Python's repr does
//     ("1.0", "100.0", "1e+16", "1e-05", "-0.0");
//   - no insignificant whitespace.
//
// Encoding is deterministic and idempotent: parsing the output and encoding
// it again yields the same bytes.
package canon

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// Encode returns the canonical form of v.
func Encode(v *jsonv.Value) []byte {
	return Append(nil, v)
}

// Hash returns the lower-case hex SHA-256 of b.
func Hash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Append appends the canonical form of v to dst.
func Append(dst []byte, v *jsonv.Value) []byte {
	switch v.Kind {
	case jsonv.Null:
		return append(dst, "null"...)
	case jsonv.Bool:
		if v.Bool {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case jsonv.Number:
		return AppendNumber(dst, v.Str, v.Float)
	case jsonv.String:
		return AppendString(dst, Strip(v.Str))
	case jsonv.Array:
		dst = append(dst, '[')
		for i := range v.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = Append(dst, &v.Items[i])
		}
		return append(dst, ']')
	case jsonv.Object:
		dst = append(dst, '{')
		if sortedKeys(v.Members) {
			// The common case (pins are stored sorted): no allocation.
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
		var small [16]*jsonv.Member
		for i, m := range sortMembers(small[:0], v.Members) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, m.Key)
			dst = append(dst, ':')
			dst = Append(dst, &m.Value)
		}
		return append(dst, '}')
	}
	return dst
}

func sortedKeys(ms []jsonv.Member) bool {
	for i := 1; i < len(ms); i++ {
		if ms[i-1].Key > ms[i].Key {
			return false
		}
	}
	return true
}

// SortedMembers returns pointers to ms ordered by key code point. Go's byte
// order on UTF-8 strings is code point order.
func SortedMembers(ms []jsonv.Member) []*jsonv.Member {
	out := make([]*jsonv.Member, len(ms))
	sorted := true
	for i := range ms {
		out[i] = &ms[i]
		if i > 0 && ms[i-1].Key > ms[i].Key {
			sorted = false
		}
	}
	if !sorted {
		slices.SortFunc(out, func(a, b *jsonv.Member) int { return strings.Compare(a.Key, b.Key) })
	}
	return out
}

// sortMembers appends pointers to ms, ordered by key, to out (which
// SortedMembers and the encoders pass on the stack for small objects).
func sortMembers(out []*jsonv.Member, ms []jsonv.Member) []*jsonv.Member {
	for i := range ms {
		out = append(out, &ms[i])
	}
	slices.SortFunc(out, func(a, b *jsonv.Member) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// IsPySpace reports whether Python's str.isspace is true for r.
func IsPySpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// Strip removes leading and trailing Python whitespace, as str.strip().
func Strip(s string) string {
	start := 0
	for start < len(s) {
		c := s[start]
		if c < utf8.RuneSelf {
			if !IsPySpace(rune(c)) {
				break
			}
			start++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[start:])
		if !IsPySpace(r) {
			break
		}
		start += size
	}
	end := len(s)
	for end > start {
		c := s[end-1]
		if c < utf8.RuneSelf {
			if !IsPySpace(rune(c)) {
				break
			}
			end--
			continue
		}
		r, size := utf8.DecodeLastRuneInString(s[start:end])
		if !IsPySpace(r) {
			break
		}
		end -= size
	}
	return s[start:end]
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string, escaping only what Python's
// json.dumps(ensure_ascii=False) escapes.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[last:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		last = i + 1
	}
	dst = append(dst, s[last:]...)
	return append(dst, '"')
}

// AppendNumber appends a number literal in canonical form. lit must be a
// valid JSON number literal; isFloat says whether it has a fraction or an
// exponent.
func AppendNumber(dst []byte, lit string, isFloat bool) []byte {
	if !isFloat {
		if lit == "-0" {
			return append(dst, '0')
		}
		return append(dst, lit...)
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		// Unreachable for literals jsonv accepted; keep the text rather
		// than invent a value.
		return append(dst, lit...)
	}
	return AppendPyFloat(dst, f)
}

// AppendPyFloat appends f as Python's float repr writes it.
func AppendPyFloat(dst []byte, f float64) []byte {
	if f == 0 {
		if strconv.FormatFloat(f, 'g', -1, 64)[0] == '-' {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	// Shortest round-trip digits and the decimal exponent.
	e := strconv.FormatFloat(f, 'e', -1, 64) // [-]d[.ddd]e±XX
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	epos := strings.IndexByte(e, 'e')
	mant, expText := e[:epos], e[epos+1:]
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	if neg {
		dst = append(dst, '-')
	}
	if exp < -4 || exp >= 16 {
		dst = append(dst, mant...)
		dst = append(dst, 'e')
		if exp < 0 {
			dst = append(dst, '-')
			exp = -exp
		} else {
			dst = append(dst, '+')
		}
		if exp < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(exp), 10)
	}
	if exp < 0 {
		dst = append(dst, '0', '.')
		for i := 0; i < -exp-1; i++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	intLen := exp + 1
	if len(digits) <= intLen {
		dst = append(dst, digits...)
		for i := len(digits); i < intLen; i++ {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	}
	dst = append(dst, digits[:intLen]...)
	dst = append(dst, '.')
	return append(dst, digits[intLen:]...)
}
