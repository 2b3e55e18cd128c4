package detect

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Look-alike letters.
//
// confusables is a compact table of the characters most used to imitate
// ASCII identifiers: the Cyrillic, Greek, Armenian and Cherokee letters
// that look like a Latin letter, a few Latin letters from the IPA and
// extension blocks (dotless i, script g), and the Roman-numeral and
// letterlike symbols NFKC leaves alone. Fullwidth forms and the
// mathematical alphanumerics need no entry: NFKC already maps them to
// ASCII. It is a subset of Unicode's confusables.txt (UTS #39) chosen for
// tool names, not the whole table: a letter outside it (a Georgian or
// Coptic look-alike, say) is not mapped. docs/detection.md lists the scope.
var confusables = map[rune]byte{
	// Cyrillic
	'а': 'a', 'А': 'A', 'В': 'B', 'в': 'b', 'с': 'c', 'С': 'C', 'ԁ': 'd', 'е': 'e', 'Е': 'E', 'ё': 'e',
	'һ': 'h', 'Н': 'H', 'н': 'h', 'і': 'i', 'І': 'I', 'ї': 'i', 'Ї': 'I', 'ј': 'j', 'Ј': 'J', 'к': 'k', 'К': 'K',
	'ӏ': 'l', 'Ӏ': 'I', 'м': 'm', 'М': 'M', 'о': 'o', 'О': 'O', 'р': 'p', 'Р': 'P', 'ԛ': 'q', 'Ԛ': 'Q',
	'ѕ': 's', 'Ѕ': 'S', 'т': 't', 'Т': 'T', 'у': 'y', 'У': 'Y', 'ү': 'y', 'Ү': 'Y', 'х': 'x', 'Х': 'X',
	'ԝ': 'w', 'Ԝ': 'W', 'ь': 'b', 'Ь': 'b', 'ɡ': 'g', 'Ꙇ': 'I',
	// Greek
	'α': 'a', 'Α': 'A', 'Β': 'B', 'β': 'b', 'ϲ': 'c', 'Ϲ': 'C', 'ε': 'e', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'η': 'n',
	'ι': 'i', 'Ι': 'I', 'ϳ': 'j', 'Κ': 'K', 'κ': 'k', 'Μ': 'M', 'Ν': 'N', 'ν': 'v', 'ο': 'o', 'Ο': 'O', 'ρ': 'p',
	'Ρ': 'P', 'Τ': 'T', 'τ': 't', 'υ': 'u', 'Υ': 'Y', 'Χ': 'X', 'χ': 'x', 'ω': 'w', 'Ϝ': 'F',
	// Armenian
	'օ': 'o', 'Օ': 'O', 'ս': 'u', 'Ս': 'U', 'հ': 'h', 'ո': 'n', 'ց': 'g', 'զ': 'q', 'ք': 'p', 'Լ': 'L',
	// Cherokee (capitals only exist in the old block)
	'Ꭺ': 'A', 'Ᏼ': 'B', 'Ꮯ': 'C', 'Ꭼ': 'E', 'Ꮋ': 'H', 'Ꮃ': 'W', 'Ꮶ': 'K', 'Ꮇ': 'M', 'Ꭲ': 'T', 'Ꮪ': 'S', 'Ꮓ': 'Z',
	// Latin extensions and IPA
	'ı': 'i', 'ȷ': 'j', 'ɑ': 'a', 'ɩ': 'i', 'ʏ': 'y', 'ǀ': 'l', 'ʟ': 'L', 'ɪ': 'I', 'ᴅ': 'D', 'ᴇ': 'E', 'ꜱ': 's',
	'ᴋ': 'K', 'ᴍ': 'M', 'ɴ': 'N', 'ᴏ': 'o', 'ᴘ': 'P', 'ʀ': 'R', 'ᴛ': 'T', 'ᴜ': 'u', 'ᴠ': 'v', 'ᴡ': 'w', 'ᴢ': 'z',
	// Symbols NFKC keeps
	'ⅼ': 'l', 'Ⅰ': 'I', 'ⅰ': 'i', '∣': 'l', 'ǃ': '!', '‐': '-', '‑': '-', '‒': '-', '–': '-', '—': '-', '−': '-',
	'․': '.', '٠': 'o', '۰': 'o', '߀': 'O',
}

// confusable returns the ASCII letter r imitates, or 0.
func confusable(r rune) byte {
	if r < utf8.RuneSelf {
		return 0
	}
	return confusables[r]
}

// skeletonClass merges ASCII characters that read alike once case is
// gone: 1, i and l (and so I and |), 0 and o.
func skeletonClass(c byte) byte {
	switch c {
	case '1', 'i', '|':
		return 'l'
	case '0':
		return 'o'
	}
	return c
}

// Collision kinds of a SHADOW group, weakest first.
const (
	CollisionExact      = "exact"      // the same name, byte for byte (after trimming)
	CollisionCase       = "case"       // equal after Unicode case folding
	CollisionNFKC       = "nfkc"       // equal after NFKC and case folding (fullwidth, ligatures, math letters)
	CollisionConfusable = "confusable" // equal after look-alike mapping (Cyrillic а for a, 1 for l)
)

// collisionRank orders collision kinds from weakest to strongest.
func collisionRank(kind string) int {
	switch kind {
	case CollisionCase:
		return 1
	case CollisionNFKC:
		return 2
	case CollisionConfusable:
		return 3
	}
	return 0
}

// foldName is a name after Unicode case folding.
func foldName(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	return cases.Fold().String(s)
}

// nfkcFoldName is a name after NFKC, case folding and the removal of
// format characters (zero-width joiners and the like).
func nfkcFoldName(s string) string {
	s = norm.NFKC.String(s)
	s = cases.Fold().String(s)
	s = norm.NFKC.String(s)
	if isASCII(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) || isVarSel(r) || r >= 0x300 && r <= 0x36f {
			return -1
		}
		return r
	}, s)
}

// Skeleton maps a tool name to the form look-alike names share: NFKC,
// look-alike letters to the ASCII letter they imitate, case folding, and
// 1/i/l and 0/o merged. Two names with the same skeleton read alike to a
// person and, often, to a model.
func Skeleton(name string) string {
	if isASCII(name) {
		b := []byte(strings.ToLower(name))
		for i := range b {
			b[i] = skeletonClass(b[i])
		}
		return string(b)
	}
	s := norm.NFKC.String(name)
	var b strings.Builder
	for _, r := range s {
		if c := confusable(r); c != 0 {
			b.WriteByte(c)
			continue
		}
		if unicode.Is(unicode.Cf, r) || isVarSel(r) || r >= 0x300 && r <= 0x36f {
			continue
		}
		b.WriteRune(r)
	}
	f := []byte(nfkcFoldName(b.String()))
	for i := range f {
		f[i] = skeletonClass(f[i])
	}
	return string(f)
}

// CollisionKind says how two names with the same skeleton differ: exact,
// case, nfkc or confusable.
func CollisionKind(a, b string) string {
	switch {
	case a == b:
		return CollisionExact
	case foldName(a) == foldName(b):
		return CollisionCase
	case nfkcFoldName(a) == nfkcFoldName(b):
		return CollisionNFKC
	}
	return CollisionConfusable
}

// InMCPCharset reports whether name is 1 to 128 characters of
// [A-Za-z0-9_.-], the tool-name character set of the MCP specification.
func InMCPCharset(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// DescribeRunes names the characters of s outside the MCP tool-name
// character set: "U+0430 Cyrillic 'а' (looks like a)". Invisible
// characters are shown by code point only.
func DescribeRunes(s string) string {
	var parts []string
	seen := map[rune]bool{}
	for _, r := range s {
		if r < utf8.RuneSelf && InMCPCharset(string(r)) || seen[r] {
			continue
		}
		seen[r] = true
		parts = append(parts, describeRune(r))
		if len(parts) == 4 {
			parts = append(parts, "...")
			break
		}
	}
	return strings.Join(parts, ", ")
}

func describeRune(r rune) string {
	var b strings.Builder
	b.WriteString(codePoint(r))
	if sc := scriptOf(r); sc != "" {
		b.WriteString(" " + sc)
	}
	if unicode.IsGraphic(r) && !unicode.Is(unicode.Cf, r) && r != ' ' {
		b.WriteString(" '" + string(r) + "'")
	}
	if c := confusable(r); c != 0 {
		b.WriteString(" (looks like " + string(rune(c)) + ")")
	} else if n := norm.NFKC.String(string(r)); n != string(r) && isASCII(n) && n != "" {
		b.WriteString(" (reads as " + n + ")")
	}
	return b.String()
}

func codePoint(r rune) string {
	const hex = "0123456789ABCDEF"
	var buf []byte
	for v := uint32(r); v > 0 || len(buf) < 4; v >>= 4 {
		buf = append([]byte{hex[v&0xf]}, buf...)
	}
	return "U+" + string(buf)
}

// scriptOf names the script of r for the scripts look-alikes come from.
func scriptOf(r rune) string {
	switch {
	case r >= 0xff00 && r <= 0xffef:
		return "fullwidth"
	case r >= 0x1d400 && r <= 0x1d7ff:
		return "mathematical"
	}
	for _, sc := range []struct {
		name string
		t    *unicode.RangeTable
	}{
		{"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek}, {"Armenian", unicode.Armenian},
		{"Cherokee", unicode.Cherokee}, {"Latin", unicode.Latin}, {"Han", unicode.Han},
		{"Arabic", unicode.Arabic}, {"Hebrew", unicode.Hebrew},
	} {
		if unicode.Is(sc.t, r) {
			return sc.name
		}
	}
	if unicode.Is(unicode.Cf, r) {
		return "format character"
	}
	return ""
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// deconfuseWords rewrites, in the normalised text, each word that mixes
// ASCII letters with look-alike letters into the ASCII word it imitates
// ("іgnore" with a Cyrillic і reads "ignore"). Words in one script are
// left alone, so Russian or Greek text stays Russian or Greek.
func deconfuseWords(a *Text) {
	s := a.norm
	var out []byte
	var from []int
	changed := false
	for i := 0; i < len(s); {
		j := i
		ascii, other := false, false
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
				break
			}
			if r < utf8.RuneSelf {
				ascii = true
			} else if confusable(r) != 0 {
				other = true
			}
			j += n
		}
		if j == i {
			_, n := utf8.DecodeRuneInString(s[i:])
			if out != nil {
				for k := i; k < i+n; k++ {
					out = append(out, s[k])
					from = append(from, k)
				}
			}
			i += n
			continue
		}
		if ascii && other {
			if out == nil {
				out = append(make([]byte, 0, len(s)), s[:i]...)
				from = make([]int, 0, len(s))
				for k := 0; k < i; k++ {
					from = append(from, k)
				}
			}
			changed = true
			for k := i; k < j; {
				r, n := utf8.DecodeRuneInString(s[k:])
				if c := confusable(r); c != 0 {
					if c >= 'A' && c <= 'Z' {
						c += 'a' - 'A'
					}
					out = append(out, c)
					from = append(from, k)
				} else {
					for m := k; m < k+n; m++ {
						out = append(out, s[m])
						from = append(from, m)
					}
				}
				k += n
			}
		} else if out != nil {
			for k := i; k < j; k++ {
				out = append(out, s[k])
				from = append(from, k)
			}
		}
		i = j
	}
	if changed {
		a.flags |= fMixed
		a.rebuild(out, from)
	}
}
