package detect

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/english"
	"golang.org/x/text/unicode/norm"
)

// Signals that read the original characters: hidden Unicode, terminal
// escapes, padding, letter spacing and look-alike names.

// quote shows untrusted text in a detail: clipped, control and invisible
// characters escaped, in single quotes.
func quoteText(s string) string {
	return "'" + sanitize.Text(clipRunes(s, 80)) + "'"
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "..."
}

// --- hidden_unicode -----------------------------------------------------

// invisible reports characters that render as nothing: zero-width
// spaces and joiners, word joiner, invisible operators, BOM, Mongolian
// vowel separator, Hangul and braille fillers, interlinear annotation
// marks and the other format characters that are not bidi controls.
// Soft hyphens and the left-to-right and right-to-left marks are left
// out: ordinary text uses them.
func invisible(r rune) bool {
	switch r {
	case 0xad, 0x200e, 0x200f, 0x61c:
		return false
	case 0x34f, 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800, 0x180e:
		return true
	}
	if isBidiControl(r) || r >= 0xe0000 && r <= 0xe007f {
		return false // reported on their own
	}
	return unicode.Is(unicode.Cf, r)
}

func pictographic(r rune) bool {
	return r >= 0x1f000 || r >= 0x2600 && r <= 0x27bf || r >= 0x2190 && r <= 0x21ff || r >= 0x2b00 && r <= 0x2bff || r == 0x20e3 || r >= 0x2300 && r <= 0x23ff || unicode.Is(unicode.So, r)
}

// legitJoiner reports a zero-width joiner or non-joiner where writing
// systems use it: inside an emoji sequence, or between letters of a
// script that shapes its letters (Arabic, Persian, the Indic scripts).
func legitJoiner(r, prev, next rune) bool {
	if r != 0x200d && r != 0x200c {
		return false
	}
	if r == 0x200d && (pictographic(prev) || prev == 0xfe0f || pictographic(next)) {
		return true
	}
	shaping := func(x rune) bool {
		return x >= 0x590 && x < 0x1100 && unicode.IsLetter(x) || unicode.Is(unicode.Mn, x) && x >= 0x590
	}
	return shaping(prev) && shaping(next)
}

func hiddenUnicodeMatch(a *Text) (string, string) {
	s := a.orig
	var (
		tags                         []byte
		nTags, nBidi, nInvis, nPUA   int
		inWord                       bool
		bidiSeen, invisSeen, puaSeen []rune
		first, last                  = -1, -1
		rloText                      []rune
		inRLO                        bool
		vsRun, vsMax                 int
		vsBytes                      []byte
		vsSupp                       bool
		mark                         = func(i, size int) {
			if first < 0 {
				first = i
			}
			last = i + size
		}
		addSeen = func(list []rune, r rune) []rune {
			for _, x := range list {
				if x == r {
					return list
				}
			}
			return append(list, r)
		}
	)
	prev := rune(-1)
	leadingBOM := strings.HasPrefix(s, "\ufeff")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		next := rune(-1)
		if i+size < len(s) {
			next, _ = utf8.DecodeRuneInString(s[i+size:])
		}
		switch {
		case r >= 0xe0000 && r <= 0xe007f:
			nTags++
			if r >= 0xe0020 && r <= 0xe007e {
				tags = append(tags, byte(r-0xe0000))
			}
			mark(i, size)
		case isBidiControl(r):
			nBidi++
			bidiSeen = addSeen(bidiSeen, r)
			mark(i, size)
			if r == 0x202e {
				inRLO = true
			} else if r == 0x202c || r == 0x2069 {
				inRLO = false
			}
		case isPUA(r):
			nPUA++
			puaSeen = addSeen(puaSeen, r)
			mark(i, size)
		case isVarSel(r):
			vsRun++
			if vsRun > vsMax {
				vsMax = vsRun
			}
			switch {
			case r >= 0xfe00 && r <= 0xfe0f:
				vsBytes = append(vsBytes, byte(r-0xfe00))
			case r >= 0xe0100:
				vsBytes = append(vsBytes, byte(r-0xe0100+16))
				if !unicode.Is(unicode.Han, prev) {
					vsSupp = true
				}
			}
			if vsRun > 1 || vsSupp {
				mark(i, size)
			}
		case invisible(r):
			if i == 0 && leadingBOM || legitJoiner(r, prev, next) {
				break
			}
			nInvis++
			invisSeen = addSeen(invisSeen, r)
			if prev >= 0 && next >= 0 && unicode.IsLetter(prev) && unicode.IsLetter(next) {
				inWord = true
			}
			mark(i, size)
		default:
			if inRLO {
				rloText = append(rloText, r)
			}
		}
		if !isVarSel(r) {
			vsRun = 0
		}
		if !isVarSel(r) && !(r >= 0xe0000 && r <= 0xe007f) {
			prev = r
		}
		i += size
	}
	var parts []string
	if nTags > 0 {
		p := strconv.Itoa(nTags) + " Unicode tag characters"
		if len(tags) > 0 {
			p += " hiding the text " + quoteText(string(tags))
			p += innerNote(string(tags))
		}
		parts = append(parts, p)
	}
	if nBidi > 0 {
		p := strconv.Itoa(nBidi) + " bidi control characters (" + codePoints(bidiSeen) + ")"
		if len(rloText) > 0 {
			shown := reverseRunes(strings.TrimSpace(string(rloText)))
			p += " that show reversed text as " + quoteText(shown) + innerNote(shown)
		}
		parts = append(parts, p)
	}
	if nInvis >= 2 || inWord && nInvis > 0 {
		p := strconv.Itoa(nInvis) + " invisible " + english.Plural(nInvis, "character", "characters") + " (" + codePoints(invisSeen) + ")"
		if msg := decodeInvisibleBits(s); msg != "" {
			p += " encoding the text " + quoteText(msg) + innerNote(msg)
		} else if inWord {
			p += " inside words"
		}
		parts = append(parts, p)
	}
	if vsMax > 1 || vsSupp {
		p := "variation selectors with no character to vary"
		if msg := printable(vsBytes); len(vsBytes) >= 4 && msg != "" {
			p += " encoding the text " + quoteText(msg) + innerNote(msg)
		}
		parts = append(parts, p)
	}
	if nPUA > 0 {
		parts = append(parts, strconv.Itoa(nPUA)+" private-use characters ("+codePoints(puaSeen)+"), which have no agreed meaning or glyph")
	}
	if len(parts) == 0 {
		return "", ""
	}
	ev := s[first:last]
	if ev == "" {
		ev = s
	}
	return clipRunes(ev, 200), "hidden Unicode: " + strings.Join(parts, "; ")
}

func codePoints(rs []rune) string {
	var out []string
	for i, r := range rs {
		if i == 6 {
			out = append(out, "...")
			break
		}
		out = append(out, codePoint(r))
	}
	return strings.Join(out, ", ")
}

func reverseRunes(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// printable returns b as text when it is mostly printable ASCII or
// UTF-8 text, else "".
func printable(b []byte) string {
	if len(b) == 0 || !utf8.Valid(b) {
		return ""
	}
	good, total := 0, 0
	for _, r := range string(b) {
		total++
		if r == '\n' || r == '\t' || r == '\r' || unicode.IsPrint(r) {
			good++
		}
	}
	if good*10 < total*9 {
		return ""
	}
	return string(b)
}

// decodeInvisibleBits decodes a run of invisible characters that spells
// bytes in binary: two characters for 0 and 1, optionally a third between
// bytes (zero-width steganography). It returns the text when one of the
// two bit assignments gives printable text.
func decodeInvisibleBits(s string) string {
	var run []rune
	best := ""
	flush := func() {
		if len(run) >= 16 {
			if msg := bitsToText(run); len(msg) > len(best) {
				best = msg
			}
		}
		run = run[:0]
	}
	for _, r := range s {
		if invisible(r) {
			run = append(run, r)
			continue
		}
		flush()
	}
	flush()
	return best
}

func bitsToText(run []rune) string {
	count := map[rune]int{}
	for _, r := range run {
		count[r]++
	}
	if len(count) < 2 || len(count) > 3 {
		return ""
	}
	var syms []rune
	for r := range count {
		syms = append(syms, r)
	}
	// The separator, if any, is the symbol whose occurrences split the
	// rest into groups of 7 or 8.
	sep := rune(-1)
	if len(syms) == 3 {
		for _, c := range syms {
			ok := true
			n := 0
			for _, r := range run {
				if r == c {
					if n != 0 && n != 7 && n != 8 {
						ok = false
						break
					}
					n = 0
				} else {
					n++
				}
			}
			if ok && (n == 0 || n == 7 || n == 8) {
				sep = c
				break
			}
		}
		if sep < 0 {
			return ""
		}
	}
	var bits []rune
	for _, r := range syms {
		if r != sep {
			bits = append(bits, r)
		}
	}
	if len(bits) != 2 {
		return ""
	}
	for _, one := range bits {
		var out []byte
		var cur byte
		n := 0
		groups := true
		for _, r := range run {
			if r == sep {
				if n > 0 {
					out = append(out, cur)
				}
				cur, n = 0, 0
				continue
			}
			cur <<= 1
			if r == one {
				cur |= 1
			}
			n++
			if sep < 0 && n == 8 {
				out = append(out, cur)
				cur, n = 0, 0
			}
		}
		if n > 0 && sep >= 0 {
			out = append(out, cur)
		} else if n > 0 {
			groups = false
		}
		if msg := printable(out); groups && len(out) >= 2 && msg != "" {
			return msg
		}
	}
	return ""
}

// --- terminal_escape ----------------------------------------------------

func terminalEscapeMatch(a *Text) (string, string) {
	s := a.orig
	var parts []string
	add := func(p string) {
		for _, x := range parts {
			if x == p {
				return
			}
		}
		if len(parts) < 6 {
			parts = append(parts, p)
		}
	}
	first, last := -1, -1
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		start := i
		i += size
		switch {
		case r == 0x1b || r == 0x9b || r == 0x9d:
			end := i
			var kind string
			switch {
			case r == 0x9b || r == 0x1b && i < len(s) && s[i] == '[':
				if r == 0x1b {
					end = skipEscape(s, start)
				} else {
					end = skipCSI(s, i)
				}
				kind = describeCSI(s, start, end)
			case r == 0x9d || r == 0x1b && i < len(s) && s[i] == ']':
				if r == 0x1b {
					end = skipEscape(s, start)
				} else {
					end = skipOSC(s, i)
				}
				kind = describeOSC(s, start, end)
			default:
				end = skipEscape(s, start)
				kind = "escape sequence " + quoteText(s[start:end])
			}
			add(kind)
			if first < 0 {
				first = start
			}
			last = end
			i = end
		case r == 0x08:
			add("backspace characters that overwrite what was printed")
			if first < 0 {
				first = start
			}
			last = i
		case r == '\r' && i < len(s) && s[i] != '\n':
			add("a carriage return that rewrites the line")
			if first < 0 {
				first = start
			}
			last = i
		case r == 0x07:
			add("a bell character")
			if first < 0 {
				first = start
			}
			last = i
		}
	}
	if len(parts) == 0 {
		return "", ""
	}
	return clipRunes(s[first:last], 200), "terminal control sequences that change what a person sees in a terminal: " + strings.Join(parts, "; ")
}

func skipCSI(s string, j int) int {
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
		j++
	}
	if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
		j++
	}
	return j
}

func skipOSC(s string, j int) int {
	for j < len(s) {
		if s[j] == 0x07 {
			return j + 1
		}
		if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
			return j + 2
		}
		if strings.HasPrefix(s[j:], "\u009c") {
			return j + 2
		}
		j++
	}
	return j
}

// describeCSI names one CSI sequence s[start:end] and, for those that
// hide text, the text they hide.
func describeCSI(s string, start, end int) string {
	seq := s[start:end]
	if len(seq) < 2 {
		return "an incomplete control sequence"
	}
	final := seq[len(seq)-1]
	body := strings.TrimLeft(seq, "\x1b[\u009b")
	params := strings.Split(strings.TrimSuffix(body, string(final)), ";")
	switch final {
	case 'm':
		for k, p := range params {
			if p == "8" {
				return "SGR 8 (conceal) hides " + quoteText(textUntilEscape(s, end))
			}
			if (p == "38" || p == "48") && k+1 < len(params) {
				// 24-bit or 256 colours: text and background alike
				// hide the text.
				if sameColours(params) {
					return "text coloured like its background hides " + quoteText(textUntilEscape(s, end))
				}
			}
		}
		if len(params) == 1 && (params[0] == "0" || params[0] == "") {
			return "a colour reset"
		}
		return "colour codes " + quoteText(seq)
	case 'K', 'J':
		return "erase codes that wipe the text before them: " + quoteText(lineBefore(s, start))
	case 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'f', 'd', 's', 'u':
		return "cursor movement " + quoteText(seq)
	}
	return "control sequence " + quoteText(seq)
}

func sameColours(params []string) bool {
	var fg, bg []string
	for k := 0; k < len(params); k++ {
		if (params[k] == "38" || params[k] == "48") && k+1 < len(params) {
			n := 2
			if params[k+1] == "2" {
				n = 4
			}
			if k+1+n > len(params) {
				return false
			}
			if params[k] == "38" {
				fg = params[k+1 : k+1+n]
			} else {
				bg = params[k+1 : k+1+n]
			}
			k += n
		}
	}
	return fg != nil && bg != nil && strings.Join(fg, ";") == strings.Join(bg, ";")
}

// describeOSC names one OSC sequence; for an OSC 8 hyperlink it shows the
// target and the label that hides it.
func describeOSC(s string, start, end int) string {
	body := s[start:end]
	body = strings.TrimPrefix(strings.TrimPrefix(body, "\x1b]"), "\u009d")
	body = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(body, "\x07"), "\x1b\\"), "\u009c")
	switch {
	case strings.HasPrefix(body, "8;"):
		parts := strings.SplitN(body, ";", 3)
		if len(parts) == 3 && parts[2] != "" {
			label := textUntilEscape(s, end)
			return "an OSC 8 hyperlink labelled " + quoteText(label) + " that opens " + quoteText(parts[2])
		}
		return "the end of an OSC 8 hyperlink"
	case strings.HasPrefix(body, "0;") || strings.HasPrefix(body, "1;") || strings.HasPrefix(body, "2;"):
		return "an OSC sequence that sets the window title to " + quoteText(body[2:])
	case strings.HasPrefix(body, "52;"):
		return "an OSC 52 sequence that writes the clipboard"
	}
	return "an OSC sequence " + quoteText(body)
}

func textUntilEscape(s string, i int) string {
	j := i
	for j < len(s) && s[j] != 0x1b && !strings.HasPrefix(s[j:], "\u009b") && !strings.HasPrefix(s[j:], "\u009d") {
		j++
	}
	return strings.TrimSpace(s[i:j])
}

// lineBefore is the text of the line before offset i, escape sequences
// left out.
func lineBefore(s string, i int) string {
	k := strings.LastIndexByte(s[:i], '\n')
	line := s[k+1 : i]
	var b strings.Builder
	for j := 0; j < len(line); {
		if line[j] == 0x1b {
			j = skipEscape(line, j)
			continue
		}
		b.WriteByte(line[j])
		j++
	}
	return strings.TrimSpace(b.String())
}

// --- padding ------------------------------------------------------------

func paddingMatch(a *Text) (string, string) {
	if a.flags&fPadding == 0 {
		return "", ""
	}
	tail := strings.TrimSpace(a.orig[a.padEnd:])
	// the tail must say something to the model, not just go on
	// documenting (an indented example, a second table)
	if !Normalize(tail).textFeatures().any(kYou | kModel | kModal | kUser | kSecret | kSend | kGive | kCall | kHide | kOverride | kRunVerb | kShell | kEvery | kExternal) {
		return "", ""
	}
	what := strconv.Itoa(a.maxSpaces) + " blank characters in a row"
	if a.maxNewlines >= padNewlines {
		what = strconv.Itoa(a.maxNewlines) + " line breaks in a row"
	}
	return clipRunes(tail, 200), what + " push the text after them out of sight: " + quoteText(tail)
}

// --- spaced_letters -----------------------------------------------------

func spacedLettersMatch(a *Text) (string, string) {
	if a.flags&fSpaced == 0 || a.spacedLen < 6 {
		return "", ""
	}
	ev := a.original(a.spacedI, a.spacedJ)
	return clipRunes(ev, 200), "letter-spaced text, which keyword filters miss, reads " + quoteText(a.norm[a.spacedI:a.spacedJ])
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
