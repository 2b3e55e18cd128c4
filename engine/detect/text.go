package detect

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// The English instruction families of the default rules. Every pattern
// reads normalised text (lower case, one space between words, see
// normalize.go); evidence is mapped back to the original.
//
// Two habits keep ordinary documentation clean:
//
//   - verbs that give an order are matched in their base form ("send",
//     "read", "paste"), so a sentence that describes the tool in the third
//     person ("Sends the message", "Reads ~/.ssh/config") is not an order;
//   - each family needs its object, not just its verb: "ignore" needs
//     instructions or rules, "do not tell" needs the user, "send" needs a
//     concrete address and something worth stealing.

// re is a pattern, compiled on first use, in which the placeholders below
// stand for shared alternations.
func re(p string) *lazyRe {
	return lazy(expand.Replace(p))
}

// lazyRe is a regular expression compiled the first time it runs. Most
// of the package's expressions run only behind anchor words, features
// and gates, so a process that never meets them never compiles them:
// start-up time and what the idle service keeps resident are what the
// texts it has read needed, not the whole rule set.
// TestLazyExpressionsCompile compiles every one.
type lazyRe struct {
	src  string
	prep func(string) string // turns src into the expression, if set
	once sync.Once
	re   *regexp.Regexp
}

// expr is a compiled or a lazy expression: what phrase sets and
// prefilters read.
type expr interface {
	String() string
	MatchString(string) bool
}

// lazyAll lists every lazy expression, for the test that compiles them.
var lazyAll []*lazyRe

func lazy(src string) *lazyRe {
	l := &lazyRe{src: src}
	lazyAll = append(lazyAll, l)
	return l
}

// lazyPrep is an expression whose source prep makes from src when it is
// compiled (the foreign patterns' normalisation is itself work).
func lazyPrep(src string, prep func(string) string) *lazyRe {
	l := lazy(src)
	l.prep = prep
	return l
}

// source is the expression's source as compiled.
func (l *lazyRe) source() string {
	if l.prep != nil {
		return l.prep(l.src)
	}
	return l.src
}

func (l *lazyRe) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.source()) })
	return l.re
}

func (l *lazyRe) String() string                 { return l.source() }
func (l *lazyRe) MatchString(s string) bool      { return l.get().MatchString(s) }
func (l *lazyRe) FindString(s string) string     { return l.get().FindString(s) }
func (l *lazyRe) FindStringIndex(s string) []int { return l.get().FindStringIndex(s) }
func (l *lazyRe) FindStringSubmatch(s string) []string {
	return l.get().FindStringSubmatch(s)
}
func (l *lazyRe) FindStringSubmatchIndex(s string) []int { return l.get().FindStringSubmatchIndex(s) }
func (l *lazyRe) FindAllStringIndex(s string, n int) [][]int {
	return l.get().FindAllStringIndex(s, n)
}
func (l *lazyRe) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}
func (l *lazyRe) SubexpIndex(name string) int { return l.get().SubexpIndex(name) }

var expand = strings.NewReplacer(
	// people the model answers to
	"{USER}", `(?:the user|the users|users?|the human|humans?|the person|anyone|anybody|the requester|the approver|the operator|the reviewer|them|him|her)`,
	// identifier-shaped tool names: snake_case, dotted or kebab-case
	"{IDENT}", "[`\"']?[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+[`\"']?",
	// up to N words of the same sentence
	"{W}", `[^.!?\n]`,
	// base-form verbs that ask the model to hand data over
	"{GIVE}", `(?:read|open|load|cat|include|paste|copy|attach|upload|send|put|pass|provide|fetch|get|grab|collect|extract|dump|print|insert|add|append|embed|take|give|share|forward|output|type|enter|supply|access|record|store|write|fill|list|hash|encode|use|using|sign in|log in)`,
)

// sentenceOf returns the bounds of the sentence of s around [i, j).
func sentenceOf(s string, i, j int) (int, int) {
	start := 0
	for k := i - 1; k >= 0; k-- {
		c := s[k]
		if c == '\n' || (c == '.' || c == '!' || c == '?' || c == ';') && k+1 < len(s) && s[k+1] == ' ' && !dotGoesOn(s, k) {
			start = k + 1
			break
		}
	}
	end := len(s)
	for k := j; k < len(s); k++ {
		c := s[k]
		if c == '\n' || (c == '.' || c == '!' || c == '?' || c == ';') && (k+1 == len(s) || s[k+1] == ' ') && !dotGoesOn(s, k) {
			end = k + 1
			break
		}
	}
	return start, end
}

// hit maps a match in a.norm to the signal result: the original text and
// the detail with the original quoted.
func hit(a *Text, i, j int, detail string) (string, string) {
	ev := strings.TrimLeft(a.original(i, j), ".,;:!? ")
	if ev == "" {
		return "", ""
	}
	if detail != "" {
		detail += ": " + quoteText(ev)
	}
	return clipRunes(ev, 200), detail
}

// firstField is the first of strings.FieldsFunc(s, f) for an f that is
// false exactly for 'a'..'z' and the apostrophe: the first run of those bytes.
// Every other byte, including each byte of a multi-byte or invalid
// character (which FieldsFunc reads as a rune f is true for), separates,
// so it reads bytes and builds no list of fields.
func firstField(s string) string {
	i := 0
	for i < len(s) && !isFieldByte(s[i]) {
		i++
	}
	j := i
	for j < len(s) && isFieldByte(s[j]) {
		j++
	}
	return s[i:j]
}

func isFieldByte(c byte) bool { return c >= 'a' && c <= 'z' || c == '\'' }

// toLower is strings.ToLower, which returns s itself when s is ASCII
// with no upper-case letter: that case, the common one for names, is
// found here with one test a byte.
func toLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c-'A' < 26 {
			return strings.ToLower(s)
		}
	}
	return s
}
