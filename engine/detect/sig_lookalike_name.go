package detect

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

var sigLookalikeName = signal{
	name: "lookalike_name", weight: 4, match: lookalikeNameMatch, charLevel: true, flags: fNonASCII,
	examples: []string{"wr\u0456te_file", "search_\u0441ode", "\u0455\u0435\u0430r\u0441\u04bb", "ｒｅａｄ_ｆｉｌｅ"},
	counter:  []string{"read_file", "поиск", "検索", "Returns the weekday in Greek (Ελληνικά).", "café au lait"},
}

// --- lookalike_name and name_charset --------------------------------------

// singleToken returns s trimmed when it is one identifier-like token: no
// blanks, at most 256 bytes.
func singleToken(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if t == "" || len(t) > 256 || strings.ContainsFunc(t, unicode.IsSpace) {
		return "", false
	}
	return t, true
}

func lookalikeNameMatch(a *Text) (string, string) {
	t, ok := singleToken(a.orig)
	if !ok || isASCII(t) {
		return "", ""
	}
	letters, ascii, look := 0, 0, 0
	other := false
	for _, r := range t {
		switch {
		case r < utf8.RuneSelf:
			if unicode.IsLetter(r) {
				ascii++
				letters++
			}
		case confusable(r) != 0:
			look++
			letters++
		case unicode.IsLetter(r):
			other = true
			letters++
		}
	}
	nk := norm.NFKC.String(t)
	switch {
	case look > 0 && !other && (ascii > 0 || look >= 2) && letters >= 2:
		// Latin letters mixed with look-alikes, or a word made of
		// look-alikes only: "wrіte_file", "ѕеаrсһ".
	case isASCII(nk) && nk != t && InMCPCharset(nk) && len(nk) >= 2:
		// fullwidth or mathematical letters that read as ASCII
	default:
		return "", ""
	}
	return t, "identifier imitates " + quoteText(readAs(t)) + " with look-alike characters: " + DescribeRunes(t)
}

// readAs is t with each look-alike replaced by the ASCII letter it
// imitates and NFKC applied, keeping case.
func readAs(t string) string {
	var b strings.Builder
	for _, r := range norm.NFKC.String(t) {
		if c := confusable(r); c != 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func nameCharsetMatch(a *Text) (string, string) {
	t, ok := singleToken(a.orig)
	if !ok || InMCPCharset(t) || isASCII(t) {
		return "", ""
	}
	if ev, _ := lookalikeNameMatch(a); ev != "" {
		return "", "" // the stronger signal says it
	}
	// identifier-shaped: ASCII letters or digits with a separator, a
	// digit or an inner capital ("größe_setzen", "getGröße"), so that a
	// plain word such as "Größe" is not a malformed name.
	hasIdent, hasASCII := false, false
	prevLower := false
	for _, r := range t {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			hasASCII = true
		}
		if r == '_' || r == '-' || r == '.' || unicode.IsDigit(r) || prevLower && unicode.IsUpper(r) || unicode.Is(unicode.Cf, r) {
			hasIdent = true
		}
		prevLower = unicode.IsLower(r)
		switch {
		case r < utf8.RuneSelf:
		case unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Armenian, unicode.Cherokee, unicode.Mn, unicode.Cf, unicode.Pd, unicode.Zs) || isPUA(r) || r >= 0xff00 && r <= 0xffef:
		default:
			// CJK, Arabic and the other scripts do not pose as ASCII
			// identifiers; text in them is not a malformed name.
			return "", ""
		}
	}
	if !hasIdent || !hasASCII {
		return "", ""
	}
	return t, "identifier is outside the MCP tool-name characters [A-Za-z0-9_.-]: " + DescribeRunes(t)
}
