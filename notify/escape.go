package notify

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The engine sanitises every string it puts in an event; escape is the
// sinks' own belt, kept here because notify does not import the engine's
// subpackages. It follows the same rules, so text the engine already
// sanitised passes through unchanged (a backslash is never escaped).

// invisible reports whether r is shown as an escape: C0 and C1 controls
// (ESC, CR, LF, BEL included), DEL, format characters (bidi controls,
// zero-width characters, BOM, soft hyphen), line and paragraph separators,
// invisible fillers, tag characters, and U+FFFD (what invalid UTF-8
// decodes to).
func invisible(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == utf8.RuneError:
		return true
	case r >= 0xE0000 && r <= 0xE007F: // tag characters
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	case r == 0x034F || r == 0x115F || r == 0x1160 || r == 0x3164 || r == 0xFFA0:
		return true
	case unicode.Is(unicode.Cf, r):
		return true
	}
	return false
}

// escape returns s with every invisible character written as \xNN (below
// U+0080), \uNNNN or \UNNNNNNNN, and every invalid UTF-8 byte as \xNN.
func escape(s string) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if invisible(r) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteByte(hex[s[i]>>4])
			b.WriteByte(hex[s[i]&0xf])
		case !invisible(r):
			b.WriteString(s[i : i+size])
		case r < 0x80:
			b.WriteString(`\x`)
			b.WriteByte(hex[r>>4])
			b.WriteByte(hex[r&0xf])
		case r <= 0xFFFF:
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte(hex[(r>>shift)&0xf])
			}
		default:
			b.WriteString(`\U`)
			for shift := 28; shift >= 0; shift -= 4 {
				b.WriteByte(hex[(r>>shift)&0xf])
			}
		}
		i += size
	}
	return b.String()
}

// escapeAll escapes each string of ss into a new slice; nil stays nil.
func escapeAll(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = escape(s)
	}
	return out
}
