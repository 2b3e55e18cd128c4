// Package sanitize makes untrusted text safe to print on a terminal, in a
// log line or in a notification.
//
// Every string that came from a descriptor or a config goes through Text
// before it reaches a person: C0 and C1 control characters (ESC, CR, LF,
// BEL included), DEL, bidi controls, zero-width and other format
// characters, line and paragraph separators and Unicode tag characters are
// shown as escapes (\x1b, \u202e, \U000e0041), so a description cannot
// rewrite the terminal of the person reading a report or hide text from
// them. Printable text, non-Latin scripts and emoji pass unchanged.
package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// NeedsEscape reports whether r is shown escaped.
func NeedsEscape(r rune) bool {
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
	case r == 0x034F || r == 0x115F || r == 0x1160 || r == 0x3164 || r == 0xFFA0: // invisible fillers
		return true
	case unicode.Is(unicode.Cf, r): // format: bidi controls, zero-width, BOM, soft hyphen
		return true
	}
	return false
}

// Text returns s with every character NeedsEscape reports shown as an
// escape. Invalid UTF-8 bytes are shown as \xNN.
func Text(s string) string {
	clean := true
	for _, r := range s {
		if NeedsEscape(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			writeX(&b, s[i])
			i++
			continue
		}
		i += size
		if !NeedsEscape(r) {
			b.WriteRune(r)
			continue
		}
		switch {
		case r < 0x80:
			writeX(&b, byte(r))
		case r <= 0xFFFF:
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte(hexDigits[(r>>shift)&0xf])
			}
		default:
			b.WriteString(`\U`)
			for shift := 28; shift >= 0; shift -= 4 {
				b.WriteByte(hexDigits[(r>>shift)&0xf])
			}
		}
	}
	return b.String()
}

func writeX(b *strings.Builder, c byte) {
	b.WriteString(`\x`)
	b.WriteByte(hexDigits[c>>4])
	b.WriteByte(hexDigits[c&0xf])
}

// Clip returns at most n runes of s, with "..." appended when it cut.
// It cuts on rune boundaries, before any escaping.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "..."
}

// Texts is Text over each string of ss, into a new slice; nil stays nil.
func Texts(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Text(s)
	}
	return out
}
