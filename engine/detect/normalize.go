package detect

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// The default rules match normalised text and quote the original.
//
// Normalisation, in one pass over the text:
//
//   - NFKC (fullwidth and mathematical letters become ASCII, ligatures
//     are split, no-break spaces become spaces), then Unicode case folding;
//   - Latin letters lose their diacritics (é → e), so "instrução" and
//     "instrucao" read the same;
//   - zero-width and other format characters (Cf), variation selectors
//     and stray combining marks are removed, so "ig\u200bnore" is
//     "ignore";
//   - Unicode tag characters (U+E0020..U+E007E, an invisible copy of
//     ASCII) are decoded into the ASCII they hide, so the hidden text is
//     matched like any other;
//   - terminal escape sequences (ESC [ ... final, ESC ] ... BEL/ST) and
//     other control characters are removed, keeping the text around them;
//   - every run of whitespace becomes one space, or one newline when the
//     run holds a line break;
//   - letter-spaced words ("i g n o r e") are joined, and a word that mixes
//     Latin letters with Cyrillic or Greek look-alikes is read as the Latin
//     word it imitates.
//
// Each normalised byte remembers the offset of the original text it came
// from, so a rule that matches normalised text reports the original words
// as its evidence (sanitised when printed).

// Text is one text as the default rules see it.
type Text struct {
	orig string
	norm string
	// offs[i] is the byte offset in orig of norm byte i, and
	// offs[len(norm)] is len(orig). Nil when norm maps byte for byte.
	offs  []int32
	alist []uint16 // the anchor words in norm, in order (see anchors.go)
	// gset, when not nil, holds the anchor groups alist meets once
	// gsetDone (see groupSet)
	gset     []uint64
	gsetDone bool
	cand     uint64 // the default signals whose gate this text passes (for the reference rules: refWords' bits)
	flags    uint32 // character features of orig and norm
	// maxSpaces and maxNewlines are the longest runs of blank characters
	// and of line breaks in orig; tail is the orig offset just after the
	// longest such run (for the padding signal).
	maxSpaces, maxNewlines, padEnd int
	// spacedI, spacedJ: the longest letter-spaced run in norm, and its
	// letter count.
	spacedI, spacedJ, spacedLen int
	// sentence features (see clause.go), read on first use
	sents     []sentence
	allF      feature
	allN      needleSet // the needles in norm, read through needles (see needles.go)
	sentsDone bool
	nbDone    bool // allN and the sentences' needles are read
	// where the text sits in the tool and what the tool is for (set by
	// Poison): the field-aware signals read them.
	kind  textKind
	tool  *toolContext
	plain bool // a short ASCII identifier: no default rule fires on it (for the reference rules: ASCII, cand read)
}

// toolContext is what the texts of one tool share: its name and its
// parameters' names, so a sentence can tell this tool from another.
type toolContext struct {
	server string // the server's name, lower case
	title  *Text
	desc   *Text
	// purposeF caches purpose()
	purposeF    feature
	purposeDone bool
	// decodeF caches toolSaysDecodeFollow
	decodeF, decodeDone bool
	name                string
	params              map[string]bool
	props               []propText // the properties' descriptions (see features_ext.go)
}

// sendsMail reports a tool that is itself about mail: its name or a
// parameter speaks of e-mail, recipients or copies.
func (tc *toolContext) sendsMail() bool {
	for _, w := range []string{"mail", "email", "smtp", "recipient", "newsletter", "invite"} {
		if strings.Contains(tc.name, w) {
			return true
		}
	}
	for p := range tc.params {
		switch p {
		case "to", "cc", "bcc", "recipients", "recipient", "email", "emails", "from", "reply_to", "attendees":
			return true
		}
	}
	return false
}

// foreign reports whether id names something other than this tool or
// one of its parameters.
func (tc *toolContext) foreign(id string) bool {
	if tc == nil {
		return true
	}
	return id != tc.name && !tc.params[id]
}

// textKind is the kind of field a text comes from.
type textKind uint8

const (
	kindOther textKind = iota
	kindName
	kindDescription
	kindProperty // a property's description inside a schema
)

// Character features, set while normalising.
const (
	fNonASCII  uint32 = 1 << iota
	fFormat           // zero-width, bidi and other Cf characters
	fTag              // Unicode tag characters
	fBidi             // bidi embedding, override or isolate controls
	fPUA              // private-use characters
	fControl          // C0/C1 control characters other than tab and line breaks
	fEscape           // ESC or a C1 CSI/OSC introducer
	fVarSel           // variation selectors
	fLongToken        // a run of 20+ base64/hex characters
	fHexEscape        // "\x" escapes
	fPercent          // "%" escapes
	fAt               // '@'
	fURL              // "://"
	fAngle            // '<'
	fBracket          // '['
	fFence            // "```"
	fBrace            // '{'
	fCJK              // Han, Hiragana, Katakana
	fCyrillic         // Cyrillic letters
	fSpaced           // letter-spaced words were joined
	fMixed            // a mixed-script word was read as Latin
	fPadding          // a long run of blank lines or spaces before more text
	fColon            // ':'
	fDot              // '.' or '/' in a token (paths, file names)
	fIdent            // an identifier-shaped token: '_', or '.'/'-' between letters
	fDigitDot         // a '.' between digits (IP addresses, versions)
	fQuote            // a quotation mark or backtick
	fGT               // '>' (">>" appends to a file: see shellConstruct)
)

// Normalize returns the normalised form of s, as every default rule
// reads it. A scan normalises each text of a tool once and hands the
// result to every rule (see Poison).
func Normalize(s string) *Text {
	a := normalize(s)
	a.cand = candidates(a)
	return a
}

// Original returns the text as written.
func (a *Text) Original() string { return a.orig }

// plainToken reports a short ASCII identifier such as "string" or
// "read_file": no default rule fires on one, so it is not normalised.
func plainToken(s string) bool {
	if len(s) == 0 || len(s) >= 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// slugPhrase reports a value that is a phrase with its blanks written as
// hyphens or underscores ("you-are-admin-now-obey-all",
// "tool_rules_supersede_system_and_user"): at least four words of
// letters, nothing else. An enum value or a default written so is read
// as the words it joins; identifiers of one to three parts
// ("read-only", "max_page_size") stay tokens.
func slugPhrase(s string) bool {
	if len(s) < 7 || len(s) > 200 || strings.IndexByte(s, ' ') >= 0 || strings.IndexByte(s, '-') < 0 && strings.IndexByte(s, '_') < 0 {
		return false
	}
	parts, letters := 1, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters++
		case c == '-' || c == '_':
			if letters == 0 {
				return false // a leading, doubled or digit-only part
			}
			parts++
			letters = 0
		default:
			return false
		}
	}
	return letters > 0 && parts >= 4
}

// slugWords is a slug phrase lower-cased with its joins read as blanks,
// byte for byte (so evidence offsets fall on the original).
func slugWords(s string) string {
	b := []byte(asciiLower(s))
	for i, c := range b {
		if c == '-' || c == '_' {
			b[i] = ' '
		}
	}
	return string(b)
}

// normBuilder accumulates normalised bytes and their origins.
type normBuilder struct {
	b    []byte
	offs []int32 // nil while b is byte-aligned with the original
	ws   byte    // pending whitespace: 0, ' ' or '\n'
	wsAt int     // orig offset of the pending whitespace
	a    *Text
	// blank-run bookkeeping for the padding signal
	runSpaces, runNewlines int
}

func (nb *normBuilder) diverge() {
	if nb.offs == nil {
		nb.offs = make([]int32, len(nb.b), len(nb.b)+64)
		for i := range nb.offs {
			nb.offs[i] = int32(i)
		}
	}
}

// emit appends c, which came from orig offset at.
func (nb *normBuilder) emit(c byte, at int) {
	if nb.ws != 0 {
		w := nb.ws
		nb.ws = 0
		if len(nb.b) > 0 { // no leading whitespace
			nb.put(w, nb.wsAt)
		}
	}
	nb.put(c, at)
}

func (nb *normBuilder) put(c byte, at int) {
	if nb.offs == nil && at != len(nb.b) {
		nb.diverge()
	}
	nb.b = append(nb.b, c)
	if nb.offs != nil {
		nb.offs = append(nb.offs, int32(at))
	}
}

// space records whitespace at orig offset at; nl is true for a line break.
func (nb *normBuilder) space(nl bool, at, size int) {
	if nb.ws == 0 {
		nb.ws, nb.wsAt = ' ', at
		nb.runSpaces, nb.runNewlines = 0, 0
	}
	if nl {
		nb.ws = '\n'
		nb.runNewlines++
	} else if nb.runNewlines == 0 && len(nb.b) > 0 {
		// blanks after a line break are indentation, not padding
		nb.runSpaces++
	}
	if nb.runSpaces > nb.a.maxSpaces {
		nb.a.maxSpaces = nb.runSpaces
		nb.a.padEnd = at + size
	}
	if nb.runNewlines > nb.a.maxNewlines {
		nb.a.maxNewlines = nb.runNewlines
		nb.a.padEnd = at + size
	}
	// Offsets diverge by themselves: the next byte put lands where the
	// original has more than one blank.
}

// normalize builds the normalised form of s; see the comment above.
func normalize(s string) *Text {
	a := &Text{}
	return normalizeInto(a, s)
}

// normalizeInto normalises s into a, which must be zero.
func normalizeInto(a *Text, s string) *Text {
	a.orig = s
	if plainToken(s) {
		a.norm = strings.ToLower(s)
		a.plain = true
		return a
	}
	if simpleASCII(s) {
		// the common case: printable ASCII, single blanks, nothing to
		// drop or decode: the normalised text is the lower case, byte for
		// byte
		a.norm = asciiLower(s)
		return finishSimple(a, nil)
	}
	nb := &normBuilder{b: make([]byte, 0, len(s)), a: a}
	var caser cases.Caser
	haveCaser := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i = normASCII(nb, s, i)
			continue
		}
		a.flags |= fNonASCII
		// One NFKC segment: a starter and what combines with it.
		var it norm.Iter
		it.InitString(norm.NFKC, s[i:])
		// A long decomposition can come back in pieces (the position
		// stays put until the segment is done): read on to the next rune
		// boundary.
		seg := it.Next()
		end := i + it.Pos()
		if !it.Done() && (end == i || end < len(s) && !utf8.RuneStart(s[end])) {
			seg = append([]byte(nil), seg...)
			for !it.Done() && (end == i || end < len(s) && !utf8.RuneStart(s[end])) {
				seg = append(seg, it.Next()...)
				end = i + it.Pos()
			}
		}
		if it.Done() && end == i {
			end = len(s)
		}
		if !haveCaser {
			caser, haveCaser = cases.Fold(), true
		}
		folded := caser.Bytes(seg)
		for k := 0; k < len(folded); {
			r, size := utf8.DecodeRune(folded[k:])
			k += size
			normRune(nb, r, i, end-i)
		}
		// Flags that the original rune shows better than its NFKC form.
		for _, r := range s[i:end] {
			origFlags(a, r)
		}
		if end == i { // cannot happen with a valid iterator; be safe
			end = i + 1
		}
		if c >= 0xe2 && emojiEndsSentence(nb, s, i, end) {
			nb.emit('.', end-1)
		}
		i = end
	}
	if nb.offs != nil {
		nb.offs = append(nb.offs, int32(len(s)))
	}
	a.norm = string(nb.b)
	a.offs = nb.offs
	return finishNormalize(a)
}

// finishNormalize runs the word-level steps on a.norm.
func finishNormalize(a *Text) *Text {
	s := a.orig
	if a.maxNewlines >= padNewlines || a.maxSpaces >= padSpaces {
		if strings.TrimSpace(s[a.padEnd:]) != "" && strings.TrimSpace(s[:a.padEnd]) != "" {
			a.flags |= fPadding
		}
	}
	if a.flags&fNonASCII != 0 {
		deconfuseWords(a)
	}
	repairWords(a)
	joinSeparatedLetters(a)
	joinSpacedLetters(a)
	joinWrapped(a)
	textingForms(a) // after the letters are joined: "r u l e s" is a word
	a.flags |= textFlags(a.norm)
	anchorWords(a)
	if a.flags&fQuote != 0 {
		maskQuoted(a)
	} else {
		maskExamples(a)
	}
	return a
}

// textingForms writes out the texting forms of "you": "u" is "you", "ur"
// is "you're" before a word a verb or a role follows ("ur now 'NocBot'",
// "ur running on") and "your" otherwise ("ur instructions"), so that
// the phrases of the lexicon read them ("u were given", "u are ZBOT").
// "u+200b" (a code point) and "u.s." stay.
func textingForms(a *Text) {
	s := a.norm
	if strings.IndexByte(s, ' ') < 0 || strings.IndexByte(s, 'u') < 0 {
		return // a lone letter is not a word of a sentence ("ư" read alone is "u")
	}
	var out []byte
	var from []int
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != 'u' || i > 0 && isWordByte(s[i-1]) {
			continue
		}
		j := i + 1
		if j < len(s) && s[j] == 'r' {
			j++
		}
		if j < len(s) && (isWordByte(s[j]) || s[j] == '+' || s[j] == '\'' || s[j] == '-' || s[j] == '.' && j+1 < len(s) && isLetterByte(s[j+1])) {
			continue
		}
		rep := "you"
		if j-i == 2 {
			rep = "your"
			switch firstWord(strings.TrimLeft(s[j:], " ")) {
			case "now", "a", "an", "the", "not", "no", "running", "being", "going", "in", "on", "allowed", "free", "supposed", "done":
				rep = "you're"
			}
		}
		if out == nil {
			out = make([]byte, 0, len(s)+16)
			from = make([]int, 0, len(s)+16)
		}
		for k := last; k < i; k++ {
			out = append(out, s[k])
			from = append(from, k)
		}
		for k := 0; k < len(rep); k++ {
			out = append(out, rep[k])
			from = append(from, i+min(k, j-i-1))
		}
		last = j
		i = j - 1
	}
	if out == nil {
		return
	}
	for k := last; k < len(s); k++ {
		out = append(out, s[k])
		from = append(from, k)
	}
	remapSpaced(a, from)
	a.rebuild(out, from)
}

// finishSimple finishes a simple ASCII text (see simpleASCII) whose
// a.norm is its lower case: one pass (scanSimple) reads its character
// features, sentences and anchor words, which is all finishNormalize
// does unless a word repair could apply; then finishNormalize runs.
// The anchor lists and sentences go into ar when it is not nil (one
// store for a tool's texts).
func finishSimple(a *Text, ar *textArena) *Text {
	if ar == nil {
		ar = &textArena{}
	}
	if !scanSimple(a, ar) {
		return finishNormalize(a)
	}
	if a.flags&fQuote != 0 {
		maskQuoted(a)
	}
	return a
}

// textArena holds the anchor lists and sentences of a tool's texts, so
// that they cost a few allocations per tool instead of two per text.
// Each text keeps a capacity-limited window of it, so a text that
// rebuilds its lists (maskQuoted) never writes into another's.
type textArena struct {
	ids   []uint16
	sents []sentence
}

// scanSimple is finishNormalize for a simple ASCII text in one pass over
// a.norm: textFlags, splitSpans and anchorWords at once. It returns
// false, leaving a as it found it, when the text has a shape that one of
// the word repairs (repairWords, joinSeparatedLetters,
// joinSpacedLetters) could change; finishNormalize then reads it.
// Simple ASCII has no blank runs (no padding) and no non-ASCII (no
// look-alikes).
func scanSimple(a *Text, ar *textArena) bool {
	m := anchorAuto
	if m == nil {
		return false // the package is still initialising
	}
	s := a.norm
	idBase, seBase := len(ar.ids), len(ar.sents)
	ids, sents := ar.ids, ar.sents
	var f uint32
	run := 0                            // textFlags' run of token bytes
	leetAt, letters, others := -1, 0, 0 // repairWords' run of leet word bytes
	st := m.root                        // the automaton's state
	si := 0                             // the start of the current sentence
	sai := int32(len(ids) - idBase)     // its first anchor
	code := false                       // inside a `code span`
	class, step, root := &m.class, m.step, m.root
	for k := 0; k < len(s); k++ {
		c := s[k]
		if c-'a' < 26 {
			// a run of letters: an automaton step a letter (the dead
			// state 0 steps to itself), and longer runs for repairWords
			// and textFlags; letters have no other part here
			j := k
			for ; j < len(s) && s[j]-'a' < 26; j++ {
				st = step[st+int32(class[s[j]])]
			}
			if (k == 0 || s[k-1] == ' ') && j < len(s) && s[j] == ' ' {
				// words of letters between blanks, the common tokens:
				// each word's blank is read here, as the blank case
				// below reads it, and the next word after it. Every run
				// starts at the word (a blank before it ended them), so
				// the word alone is the token run and no leet run is
				// open; only a one-letter word can start letter spacing.
				long, spaced := false, false
				for {
					if id := step[st]; id != 0 {
						ids = append(ids, uint16(id-1))
					}
					st = root
					long = long || j-k >= 20
					if j-k <= 2 && s[k] == 'u' && (j-k == 1 || s[k+1] == 'r') {
						ar.ids, ar.sents = ar.ids[:idBase], ar.sents[:seBase]
						return false // "u", "ur": texting forms, read in full (textingForms)
					}
					if j-k == 1 && j+3 < len(s) && isLetterByte(s[j+1]) && s[j+2] == ' ' && isLetterByte(s[j+3]) && (j+4 == len(s) || !isWordByte(s[j+4])) {
						spaced = true
						break
					}
					k = j + 1
					if k == len(s) || s[k]-'a' >= 26 {
						break
					}
					for j = k; j < len(s) && s[j]-'a' < 26; j++ {
						st = step[st+int32(class[s[j]])]
					}
					if j == len(s) || s[j] != ' ' {
						break
					}
				}
				if long {
					f |= fLongToken
				}
				if spaced {
					ar.ids, ar.sents = ar.ids[:idBase], ar.sents[:seBase]
					return false
				}
				if k == j+1 {
					// every word read, and k the byte after the last blank
					k--
					continue
				}
				// the run [k, j) is not followed by a blank: read below
			}
			if j-k <= 2 && s[k] == 'u' && (j-k == 1 || s[k+1] == 'r') && (k == 0 || !isWordByte(s[k-1])) {
				ar.ids, ar.sents = ar.ids[:idBase], ar.sents[:seBase]
				return false // "u", "ur" at the end or before punctuation: see textingForms
			}
			if leetAt < 0 {
				leetAt, letters, others = k, 0, 0
			}
			letters += j - k
			if run += j - k; run >= 20 {
				f |= fLongToken
			}
			k = j - 1
			continue
		}
		if c == ' ' {
			// a blank ends a word and both runs; it starts no flag, no
			// sentence and no separated-letter run
			if id := step[st]; id != 0 {
				ids = append(ids, uint16(id-1))
			}
			st = root
			if leetAt >= 0 {
				if letters >= 2 && others >= 1 && k-leetAt <= 24 && leetRepaired(s[leetAt:k]) {
					ar.ids, ar.sents = ar.ids[:idBase], ar.sents[:seBase]
					return false
				}
				leetAt = -1
			}
			run = 0
			if k >= 1 && k+3 < len(s) && isLetterByte(s[k-1]) && (k == 1 || !isWordByte(s[k-2])) &&
				isLetterByte(s[k+1]) && s[k+2] == ' ' && isLetterByte(s[k+3]) && (k+4 == len(s) || !isWordByte(s[k+4])) {
				ar.ids, ar.sents = ar.ids[:idBase], ar.sents[:seBase]
				return false
			}
			continue
		}
		// anchorWords
		if cl := class[c]; cl != 0 {
			st = step[st+int32(cl)]
		} else {
			if id := step[st]; id != 0 {
				ids = append(ids, uint16(id-1))
			}
			st = root
		}
		// repairWords: a run of letters with digits, '@' or '$' that it
		// rewrites ("1gn0re"; not "crm0" or "base64")
		if isLeetWordByte(c) {
			if leetAt < 0 {
				leetAt, letters, others = k, 0, 0
			}
			if isLetterByte(c) {
				letters++
			} else {
				others++
			}
		} else if leetAt >= 0 {
			if letters >= 2 && others >= 1 && k-leetAt <= 24 && leetRepaired(s[leetAt:k]) {
				ar.ids, ar.sents = ar.ids[:idBase], ar.sents[:seBase]
				return false
			}
			leetAt = -1
		}
		// textFlags
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=' || c == '_' || c == '-' {
			run++
			if run >= 20 {
				f |= fLongToken
			}
		} else {
			run = 0
		}
		switch c {
		case '"', '\'':
			f |= fQuote
		case '@':
			f |= fAt
		case '<':
			f |= fAngle
		case '>':
			f |= fGT
		case '[':
			f |= fBracket
		case '{':
			f |= fBrace
		case '%':
			f |= fPercent
		case ':':
			f |= fColon
			if k+2 < len(s) && s[k+1] == '/' && s[k+2] == '/' {
				f |= fURL
			}
		case '\\':
			if k+1 < len(s) && s[k+1] == 'x' {
				f |= fHexEscape
			}
		case '`':
			f |= fQuote
			if k+2 < len(s) && s[k+1] == '`' && s[k+2] == '`' {
				f |= fFence
			}
		case '.', '/', '-':
			if c != '-' && k+1 < len(s) && s[k+1] != ' ' && s[k+1] != '\n' {
				f |= fDot
			}
			if c != '/' && k > 0 && k+1 < len(s) {
				p, n := s[k-1], s[k+1]
				if isLetterByte(p) && isLetterByte(n) {
					f |= fIdent
				}
				if c == '.' && p >= '0' && p <= '9' && n >= '0' && n <= '9' {
					f |= fDigitDot
				}
			}
		case '_':
			f |= fIdent
		}
		// joinSeparatedLetters: "x-y-z", "x.y.z", "x_y_z"
		if (c == '-' || c == '.' || c == '_') && k >= 1 && k+3 < len(s) && isLetterByte(s[k-1]) && isLetterByte(s[k+1]) && s[k+2] == c && isLetterByte(s[k+3]) {
			ar.ids, ar.sents = ar.ids[:idBase], ar.sents[:seBase]
			return false
		}
		// joinSpacedLetters: three single letters a blank apart
		if c == ' ' && k >= 1 && k+3 < len(s) && isLetterByte(s[k-1]) && (k == 1 || !isWordByte(s[k-2])) &&
			isLetterByte(s[k+1]) && s[k+2] == ' ' && isLetterByte(s[k+3]) && (k+4 == len(s) || !isWordByte(s[k+4])) {
			ar.ids, ar.sents = ar.ids[:idBase], ar.sents[:seBase]
			return false
		}
		// splitSpans (a ';' inside a `code span` ends no sentence)
		switch {
		case c == '`':
			code = !code
		case c == '\n':
			// not in simple ASCII; a line break may join a broken word
			ar.ids, ar.sents = ar.ids[:idBase], ar.sents[:seBase]
			return false
		case (c == '.' || c == '!' || c == '?' || c == ';' && !code) && (k+1 == len(s) || s[k+1] == ' ' || s[k+1] == '\n') && !dotGoesOn(s, k):
			sents = append(sents, sentence{i: si, j: k + 1, ai: sai, aj: int32(len(ids) - idBase)})
			sai = int32(len(ids) - idBase)
			si = k + 1
			if k+1 < len(s) && s[k+1] == ' ' {
				si++
			}
		}
	}
	if leetAt >= 0 && letters >= 2 && others >= 1 && len(s)-leetAt <= 24 && leetRepaired(s[leetAt:]) {
		ar.ids, ar.sents = ar.ids[:idBase], ar.sents[:seBase]
		return false
	}
	if id := step[st]; id != 0 {
		ids = append(ids, uint16(id-1))
	}
	if len(s) > si {
		sents = append(sents, sentence{i: si, j: len(s), ai: sai, aj: int32(len(ids) - idBase)})
	}
	ar.ids, ar.sents = ids, sents
	a.alist = ids[idBase:len(ids):len(ids)]
	a.sents = sents[seBase:len(sents):len(sents)]
	a.sentsDone = false
	a.flags |= f
	return true
}

// leetRepaired reports whether repairWords rewrites the leet-shaped run
// w (see leetReads).
func leetRepaired(w string) bool {
	var buf [24]byte
	_, ok := leetReads(w, buf[:0])
	return ok
}

// simpleASCII reports text that normalises to its own lower case:
// printable ASCII, no leading, trailing or repeated blanks, no escapes,
// emphasis or character references.
func simpleASCII(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '*' || c == '~' || c == '&' || c == ' ' && s[i+1] == ' ' {
			return false
		}
	}
	return true
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for k := i; k < len(b); k++ {
				if c := b[k]; c >= 'A' && c <= 'Z' {
					b[k] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// Padding: this many blank lines, or blank characters in a row, before
// more text.
const (
	padNewlines = 8
	padSpaces   = 40
)

// normASCII handles one ASCII byte (or an escape sequence) at s[i] and
// returns the next offset.
func normASCII(nb *normBuilder, s string, i int) int {
	c := s[i]
	switch {
	case c >= 'A' && c <= 'Z':
		nb.emit(c+'a'-'A', i)
	case c == ' ' || c == '\t':
		nb.space(false, i, 1)
	case c == '\n' || c == '\r' || c == '\v' || c == '\f':
		if c == '\r' && i+1 < len(s) && s[i+1] != '\n' && s[i+1] != '\r' {
			// A bare carriage return rewrites the line on a terminal.
			nb.a.flags |= fControl
		}
		nb.space(true, i, 1)
	case c == 0x1b:
		nb.a.flags |= fEscape | fControl
		return skipEscape(s, i)
	case c < 0x20 || c == 0x7f:
		nb.a.flags |= fControl
	case c == '*' || c == '~':
		// markdown emphasis around or inside a word ("**I**gnore",
		// "*previous*", "~~x~~") is dropped; a glob ("**/*.go", "*_KEY")
		// is kept
		j := i
		for j < len(s) && s[j] == c {
			j++
		}
		if j-i <= 3 && (i > 0 && isASCIILetter(s[i-1]) || j < len(s) && isASCIILetter(s[j])) && (c == '*' || j-i == 2) {
			return j
		}
		for k := i; k < j; k++ {
			nb.emit(c, k)
		}
		return j
	case c == '&':
		if r, n := htmlEntity(s[i:]); n > 0 {
			switch {
			case r == ' ' || r == 0xa0:
				nb.space(false, i, n)
			case r < utf8.RuneSelf:
				if r >= 'A' && r <= 'Z' {
					r += 'a' - 'A'
				}
				nb.emit(byte(r), i)
			default:
				normRune(nb, r, i, n)
			}
			return i + n
		}
		nb.emit(c, i)
	default:
		nb.emit(c, i)
	}
	return i + 1
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// htmlEntity decodes an HTML character reference at the start of s
// ("&#73;", "&#x49;", "&amp;", …) and returns the character and the
// reference's length, or 0.
func htmlEntity(s string) (rune, int) {
	end := strings.IndexByte(s, ';')
	if end < 2 || end > 10 {
		return 0, 0
	}
	body := s[1:end]
	if body[0] == '#' {
		base, digits := 10, body[1:]
		if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
			base, digits = 16, digits[1:]
		}
		if digits == "" {
			return 0, 0
		}
		var r rune
		for _, d := range digits {
			var v rune
			switch {
			case d >= '0' && d <= '9':
				v = d - '0'
			case base == 16 && d >= 'a' && d <= 'f':
				v = d - 'a' + 10
			case base == 16 && d >= 'A' && d <= 'F':
				v = d - 'A' + 10
			default:
				return 0, 0
			}
			r = r*rune(base) + v
			if r > unicode.MaxRune {
				return 0, 0
			}
		}
		if r == 0 || r >= 0xd800 && r <= 0xdfff {
			return 0, 0
		}
		return r, end + 1
	}
	switch body {
	case "amp":
		return '&', end + 1
	case "lt":
		return '<', end + 1
	case "gt":
		return '>', end + 1
	case "quot":
		return '"', end + 1
	case "apos":
		return '\'', end + 1
	case "nbsp":
		return 0xa0, end + 1
	case "shy", "zwj", "zwnj", "lrm", "rlm":
		return 0xad, end + 1
	}
	return 0, 0
}

// skipEscape returns the offset after the escape sequence at s[i] (ESC):
// CSI (ESC [ params final), OSC (ESC ] ... BEL or ESC \), or ESC and one
// more byte.
func skipEscape(s string, i int) int {
	j := i + 1
	if j >= len(s) {
		return j
	}
	switch s[j] {
	case '[':
		j++
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
			j++
		}
		if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
			j++
		}
		return j
	case ']', 'P', '_', '^':
		j++
		for j < len(s) {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
			j++
		}
		return j
	}
	if s[j] >= 0x20 && s[j] < 0x7f {
		return j + 1 // ESC and one more character (ESC 7, ESC c, ...)
	}
	return j
}

// normRune handles one rune of a folded NFKC segment that started at
// orig offset at and is size bytes long there.
func normRune(nb *normBuilder, r rune, at, size int) {
	switch {
	case r < utf8.RuneSelf:
		c := byte(r)
		switch {
		case c == ' ' || c == '\t':
			nb.space(false, at, size)
		case c == '\n' || c == '\r' || c == '\v' || c == '\f':
			nb.space(true, at, size)
		case c < 0x20 || c == 0x7f:
			nb.a.flags |= fControl
		default:
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			nb.emit(c, at)
		}
	case r >= 0xE0020 && r <= 0xE007E: // tag characters: decode the hidden ASCII
		c := byte(r - 0xE0000)
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c == ' ' {
			nb.space(false, at, size)
		} else {
			nb.emit(c, at)
		}
	case r == 0x85 || r == 0x2028 || r == 0x2029:
		nb.space(true, at, size)
	case unicode.IsSpace(r):
		nb.space(false, at, size)
	case r == 0x2018 || r == 0x2019 || r == 0x02bc || r == 0x2032:
		nb.emit('\'', at)
	case r == 0x201c || r == 0x201d || r == 0x2033:
		nb.emit('"', at)
	case r == 0x2010 || r == 0x2011 || r == 0x2012 || r == 0x2013 || r == 0x2014 || r == 0x2212:
		nb.emit('-', at)
	case r >= 0x80 && r <= 0x9f: // C1 controls
		nb.a.flags |= fControl
		if r == 0x9b || r == 0x9d {
			nb.a.flags |= fEscape
		}
	case isVarSel(r), r >= 0x300 && r <= 0x36f, unicode.Is(unicode.Cf, r), isPUA(r):
		// removed
	case r == 0x34f || r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0 || r == 0x2800:
		// invisible fillers read as blanks
		nb.space(false, at, size)
	default:
		if r >= 0xc0 && r < 0x250 {
			if b := latinBase[r-0xc0]; b != 0 {
				nb.emit(b, at)
				return
			}
		}
		var buf [utf8.UTFMax]byte
		n := utf8.EncodeRune(buf[:], r)
		for k := 0; k < n; k++ {
			nb.emit(buf[k], at)
		}
	}
}

// origFlags records features of one original (non-ASCII) rune.
func origFlags(a *Text, r rune) {
	switch {
	case r >= 0xE0000 && r <= 0xE007F:
		a.flags |= fTag | fFormat
	case isBidiControl(r):
		a.flags |= fBidi | fFormat
	case isVarSel(r):
		a.flags |= fVarSel
	case isPUA(r):
		a.flags |= fPUA
	case r == 0x34f || r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0 || r == 0x2800 || r == 0x180e:
		a.flags |= fFormat
	case unicode.Is(unicode.Cf, r):
		a.flags |= fFormat
	case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
		a.flags |= fCJK
	case unicode.Is(unicode.Cyrillic, r):
		a.flags |= fCyrillic
	}
}

// isPictograph reports an emoji-like pictograph: the emoji planes and
// the miscellaneous symbols and dingbats, not arrows, which sit inside
// sentences ("Settings → Privacy").
func isPictograph(r rune) bool {
	return r >= 0x1f000 && r <= 0x1faff || r >= 0x2600 && r <= 0x2793 || r == 0x2b50 || r == 0x2b55 || r == 0x231a || r == 0x231b || r >= 0x23e9 && r <= 0x23fa
}

// emojiEndsSentence reports that the pictograph in s[i:end] ends a
// sentence, as many descriptions write them ("… after a restart 🔄 The
// app keeps …", "… salon files 🛟 When the filesystem tool …"): text
// before it that no stop ends, and after it, past blanks and the rest
// of its cluster, a capital letter. A pictograph inside a sentence
// ("tap 👍 if it worked") or before a list item ends nothing.
func emojiEndsSentence(nb *normBuilder, s string, i, end int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:end])
	if !isPictograph(r) {
		return false
	}
	// the byte before the pictographs (already emitted) and blanks
	k := len(nb.b) - 1
	for k >= 0 && (nb.b[k] >= utf8.RuneSelf || nb.b[k] == ' ') {
		k--
	}
	if k < 0 {
		return false
	}
	switch nb.b[k] {
	case '.', '!', '?', ':', ';', '\n', '(', '-', '*', '#', '|':
		return false
	}
	for k := end; k < len(s); {
		r, size := utf8.DecodeRuneInString(s[k:])
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == 0x200d || isVarSel(r) || r >= 0x1f3fb && r <= 0x1f3ff:
			k += size
		case isPictograph(r):
			return false // the cluster's last pictograph decides
		default:
			return r >= 'A' && r <= 'Z'
		}
	}
	return false
}

func isVarSel(r rune) bool {
	return r >= 0xfe00 && r <= 0xfe0f || r >= 0xe0100 && r <= 0xe01ef || r >= 0x180b && r <= 0x180d || r == 0x180f
}

func isPUA(r rune) bool {
	return r >= 0xe000 && r <= 0xf8ff || r >= 0xf0000 && r <= 0xffffd || r >= 0x100000 && r <= 0x10fffd
}

func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// latinBase maps U+00C0..U+024F to the ASCII letter it decorates, or 0.
var latinBase = func() (t [0x250 - 0xc0]byte) {
	for r := rune(0xc0); r < 0x250; r++ {
		d := norm.NFD.String(string(r))
		if b := d[0]; b < utf8.RuneSelf && (b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z') {
			if b >= 'A' && b <= 'Z' {
				b += 'a' - 'A'
			}
			t[r-0xc0] = b
		}
	}
	t[0xdf-0xc0] = 0 // ß folds to "ss" before this table is read
	return t
}()

// textFlags records punctuation features of the normalised text.
func textFlags(s string) uint32 {
	var f uint32
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=' || c == '_' || c == '-' {
			run++
			if run >= 20 {
				f |= fLongToken
			}
		} else {
			run = 0
		}
		switch c {
		case '"', '\'':
			f |= fQuote
		case 0xe3: // 「 and 『 quote too
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0x8c || s[i+2] == 0x8e) {
				f |= fQuote
			}
		case '@':
			f |= fAt
		case '<':
			f |= fAngle
		case '>':
			f |= fGT
		case '[':
			f |= fBracket
		case '{':
			f |= fBrace
		case '%':
			f |= fPercent
		case ':':
			f |= fColon
			if i+2 < len(s) && s[i+1] == '/' && s[i+2] == '/' {
				f |= fURL
			}
		case '\\':
			if i+1 < len(s) && s[i+1] == 'x' {
				f |= fHexEscape
			}
		case '`':
			f |= fQuote
			if i+2 < len(s) && s[i+1] == '`' && s[i+2] == '`' {
				f |= fFence
			}
		case '.', '/', '-':
			if c != '-' && i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\n' {
				f |= fDot
			}
			if c != '/' && i > 0 && i+1 < len(s) {
				p, n := s[i-1], s[i+1]
				if isLetterByte(p) && isLetterByte(n) {
					f |= fIdent
				}
				if c == '.' && p >= '0' && p <= '9' && n >= '0' && n <= '9' {
					f |= fDigitDot
				}
			}
		case '_':
			f |= fIdent
		}
	}
	return f
}

// rebuild replaces a.norm with out, whose bytes come from the norm
// offsets in from (one per byte of out).
func (a *Text) rebuild(out []byte, from []int) {
	offs := make([]int32, len(out)+1)
	for i, k := range from {
		offs[i] = a.origAt(k)
	}
	offs[len(out)] = int32(len(a.orig))
	a.norm = string(out)
	a.offs = offs
}

// origAt is the orig offset of norm byte k (k may be len(norm)).
func (a *Text) origAt(k int) int32 {
	if a.offs == nil {
		if k >= len(a.norm) {
			return int32(len(a.orig))
		}
		return int32(k)
	}
	return a.offs[k]
}

// original returns the original text behind norm[i:j], trimmed: from
// the origin of its first byte to the end of the character its last byte
// came from (with any combining marks), so characters the normalisation
// dropped after the match are not quoted.
func (a *Text) original(i, j int) string {
	if i < 0 {
		i = 0
	}
	if j > len(a.norm) {
		j = len(a.norm)
	}
	if i >= j {
		return ""
	}
	oi := int(a.origAt(i))
	last := int(a.origAt(j - 1))
	if last >= len(a.orig) {
		last = len(a.orig) - 1
	}
	_, n := utf8.DecodeRuneInString(a.orig[last:])
	oj := last + n
	for oj < len(a.orig) {
		r, n := utf8.DecodeRuneInString(a.orig[oj:])
		if !unicode.In(r, unicode.Mn, unicode.Me) && !isVarSel(r) {
			break
		}
		oj += n
	}
	if oj <= oi {
		return ""
	}
	return strings.TrimSpace(a.orig[oi:oj])
}

// joinSpacedLetters joins runs of three or more single letters separated by
// single blanks ("i g n o r e" → "ignore"). Two or more blanks, or any
// other character, end a word, so "i g n o r e  a l l" reads "ignore all":
// in the normalised text the double blank is already one space, so the
// word gaps are read from the original.
func joinSpacedLetters(a *Text) {
	s := a.norm
	// run returns the end (inclusive) of the spaced run starting at i and
	// its letter count.
	run := func(i int) (int, int) {
		if !isLetterByte(s[i]) || i > 0 && isWordByte(s[i-1]) || i+1 < len(s) && isWordByte(s[i+1]) {
			return i, 0
		}
		j, n := i, 1
		for j+2 < len(s) && s[j+1] == ' ' && isLetterByte(s[j+2]) && (j+3 == len(s) || !isWordByte(s[j+3])) && a.singleGap(j+1) {
			j += 2
			n++
		}
		return j, n
	}
	found := false
	for i := 0; i+4 < len(s) && !found; i++ {
		// a cheap look for "x y z" before the exact check
		if s[i+1] == ' ' && s[i+3] == ' ' && isLetterByte(s[i]) && isLetterByte(s[i+2]) && isLetterByte(s[i+4]) {
			if _, n := run(i); n >= 3 {
				found = true
			}
		}
	}
	if !found {
		return
	}
	out := make([]byte, 0, len(s))
	from := make([]int, 0, len(s))
	for i := 0; i < len(s); {
		if j, n := run(i); n >= 3 {
			at := len(out)
			for k := i; k <= j; k += 2 {
				out = append(out, s[k])
				from = append(from, k)
			}
			if n > a.spacedLen {
				a.spacedI, a.spacedJ, a.spacedLen = at, len(out), n
			}
			a.flags |= fSpaced
			i = j + 1
			continue
		}
		out = append(out, s[i])
		from = append(from, i)
		i++
	}
	a.rebuild(out, from)
}

// singleGap reports whether the blank at norm offset k stands for exactly
// one blank in the original.
func (a *Text) singleGap(k int) bool {
	if a.offs == nil {
		return true
	}
	return a.offs[k+1]-a.offs[k] <= 1
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf || c == '_'
}

// anchorWords splits a.norm into sentences and records which anchor
// words each sentence, and the text, holds.
func anchorWords(a *Text) {
	s := a.norm
	a.sents = splitSpans(s, a.sents)
	a.sentsDone = false
	a.alist = a.alist[:0]
	m := anchorAuto
	if m == nil {
		anchorWordsHashed(a)
		return
	}
	for n := range a.sents {
		se := &a.sents[n]
		se.ai = int32(len(a.alist))
		st := m.root // at a word boundary
		for i := se.i; i < se.j; i++ {
			c := m.class[s[i]]
			if c != 0 {
				st = m.step[st+int32(c)]
				continue
			}
			if id := m.accept(st); id != 0 {
				a.alist = append(a.alist, uint16(id-1))
			}
			st = m.root
		}
		if id := m.accept(st); id != 0 {
			a.alist = append(a.alist, uint16(id-1))
		}
		se.aj = int32(len(a.alist))
	}
}

// anchorWordsHashed is anchorWords before the automaton is built (while
// the package initialises): one map lookup per word.
func anchorWordsHashed(a *Text) {
	s := a.norm
	for n := range a.sents {
		se := &a.sents[n]
		se.ai = int32(len(a.alist))
		start := -1
		for i := se.i; i <= se.j; i++ {
			word := i < se.j && isAnchorWordByte(s[i])
			if word {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 {
				if w := s[start:i]; anchorShape.has(w) {
					if id, ok := anchorIDs[w]; ok {
						a.alist = append(a.alist, uint16(id))
					}
				}
				start = -1
			}
		}
		se.aj = int32(len(a.alist))
	}
}

// wordShapes is a cheap filter in front of a word map: a one-hash Bloom
// filter of the map's words (65,536 bits, under 3% false positives for
// the lexicon's 1,800 words). has is false for a word the map does not
// hold, so most words of a text are never looked up; true is only a
// maybe.
type wordShapes [1024]uint64

// shapeHash hashes a word for wordShapes: its bytes (the first and last
// eight of a long word) and its length, mixed by one multiply.
func shapeHash(w string) uint32 {
	n := len(w)
	var x uint64
	if n >= 8 {
		x = le64(w) ^ le64(w[n-8:])*0xff51afd7ed558ccd
	} else {
		for i := 0; i < n; i++ {
			x = x<<8 | uint64(w[i])
		}
	}
	x = (x ^ uint64(n)<<58) * 0x9e3779b97f4a7c15
	return uint32(x >> 48)
}

func (ws *wordShapes) add(w string) {
	h := shapeHash(w)
	ws[h>>6] |= 1 << (h & 63)
}

func (ws *wordShapes) has(w string) bool {
	h := shapeHash(w)
	return ws[h>>6]&(1<<(h&63)) != 0
}

// anchorShape filters anchorIDs; filled at the end of the signal
// table's init, when every anchor word is known.
var anchorShape wordShapes
