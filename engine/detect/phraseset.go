package detect

import (
	"regexp/syntax"
	"strings"
)

// phraseSet answers MatchString for an expression of the form
// \b(p1|p2|…)\b that matches a finite set of words and phrases, each
// starting and ending with an ASCII word character ("passwords?", "card
// numbers?", "don't"): such a phrase matches where it starts a run of
// word characters and ends one, so a scan of the text's word runs with
// one lookup of each run finds what the expression finds, without
// trying the expression at every byte. The phrases are read from the
// expression itself (phrasesOf), so its source stays the one place
// they are written; an expression of any other form is run as it is.
// TestPhraseSetsMatchTheirExpressions and FuzzPhraseSets compare the
// two.
type phraseSet struct {
	re    expr
	first map[string][]string // a phrase's first word -> the phrases
	start [4]uint64           // the first bytes of the phrases
	minW  int                 // the shortest and longest first word
	maxW  int
}

// The whole-word expressions the signals run on many sentences, read as
// phrase sets.
var (
	overrideObjectSet   = phrasesOf(overrideObject)
	argChangeSet        = phrasesOf(argChange)
	protectiveObjectSet = phrasesOf(protectiveObject)
	presentationalSet   = phrasesOf(presentational)
	sideEffectVerbsSet  = phrasesOf(sideEffectVerbs)
)

// phrasesOf returns re's phrase set (fast when re has the form
// phraseSet reads; otherwise MatchString runs re).
func phrasesOf(re expr) *phraseSet {
	ps := &phraseSet{re: re}
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return ps
	}
	t = t.Simplify()
	if t.Op != syntax.OpConcat || len(t.Sub) < 3 || t.Sub[0].Op != syntax.OpWordBoundary || t.Sub[len(t.Sub)-1].Op != syntax.OpWordBoundary {
		return ps
	}
	set, ok := finiteStrings(&syntax.Regexp{Op: syntax.OpConcat, Sub: t.Sub[1 : len(t.Sub)-1]}, 4096)
	if !ok || len(set) == 0 {
		return ps
	}
	first := map[string][]string{}
	ps.minW = 1 << 30
	for _, p := range set {
		if p == "" || !isASCIIWordByte(p[0]) || !isASCIIWordByte(p[len(p)-1]) {
			return ps
		}
		w := 1
		for w < len(p) && isASCIIWordByte(p[w]) {
			w++
		}
		if !contains(first[p[:w]], p) {
			first[p[:w]] = append(first[p[:w]], p)
		}
		ps.start[p[0]>>6] |= 1 << (p[0] & 63)
		ps.minW = min(ps.minW, w)
		ps.maxW = max(ps.maxW, w)
	}
	ps.first = first
	return ps
}

func (ps *phraseSet) fast() bool { return ps.first != nil }

// MatchString reports whether re matches s.
func (ps *phraseSet) MatchString(s string) bool {
	if ps.first == nil {
		return ps.re.MatchString(s)
	}
	for i := 0; i < len(s); {
		c := s[i]
		if !isASCIIWordByte(c) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isASCIIWordByte(s[j]) {
			j++
		}
		if n := j - i; n >= ps.minW && n <= ps.maxW && ps.start[c>>6]&(1<<(c&63)) != 0 {
			for _, p := range ps.first[s[i:j]] {
				if e := i + len(p); strings.HasPrefix(s[i:], p) && (e == len(s) || !isASCIIWordByte(s[e])) {
					return true
				}
			}
		}
		i = j
	}
	return false
}

// isASCIIWordByte reports a byte of \w, the bytes \b reads.
func isASCIIWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// finiteStrings lists every string t matches when that is a finite set
// of at most limit strings: literals, small classes, concatenations,
// alternations, optional parts, bounded repeats and groups.
func finiteStrings(t *syntax.Regexp, limit int) ([]string, bool) {
	switch t.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		if t.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return []string{string(t.Rune)}, true
	case syntax.OpCharClass:
		var out []string
		for k := 0; k+1 < len(t.Rune); k += 2 {
			for r := t.Rune[k]; r <= t.Rune[k+1]; r++ {
				if len(out) >= 64 {
					return nil, false
				}
				out = append(out, string(r))
			}
		}
		return out, true
	case syntax.OpCapture:
		return finiteStrings(t.Sub[0], limit)
	case syntax.OpQuest:
		s, ok := finiteStrings(t.Sub[0], limit)
		if !ok || len(s)+1 > limit {
			return nil, false
		}
		return append(s, ""), true
	case syntax.OpAlternate:
		var out []string
		for _, sub := range t.Sub {
			s, ok := finiteStrings(sub, limit)
			if !ok || len(out)+len(s) > limit {
				return nil, false
			}
			out = append(out, s...)
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range t.Sub {
			s, ok := finiteStrings(sub, limit)
			if !ok || len(out)*len(s) > limit {
				return nil, false
			}
			next := make([]string, 0, len(out)*len(s))
			for _, a := range out {
				for _, b := range s {
					next = append(next, a+b)
				}
			}
			out = next
		}
		return out, true
	case syntax.OpRepeat:
		if t.Max < 0 || t.Max > 4 {
			return nil, false
		}
		var out []string
		for n := t.Min; n <= t.Max; n++ {
			subs := make([]*syntax.Regexp, n)
			for k := range subs {
				subs[k] = t.Sub[0]
			}
			s, ok := finiteStrings(&syntax.Regexp{Op: syntax.OpConcat, Sub: subs}, limit)
			if !ok || len(out)+len(s) > limit {
				return nil, false
			}
			out = append(out, s...)
		}
		return out, true
	}
	return nil, false
}
