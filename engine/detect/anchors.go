package detect

import (
	"regexp"
	"strings"
)

// Anchors keep the patterns cheap: a pattern runs only on a text that
// holds at least one word of each of its anchor groups (and its required
// character features). The words of a text are looked up once, when it is
// normalised, into a bit set; checking a pattern's anchors is a few AND
// operations, so most texts never reach a regular expression.

// wordBits is a set of anchor words, by id.
type wordBits [16]uint64

const maxAnchorWords = len(wordBits{}) * 64

// anchorIDs numbers every anchor word; filled while the package's
// patterns are built, read-only afterwards.
var anchorIDs = map[string]int{}

func anchorID(w string) int {
	if id, ok := anchorIDs[w]; ok {
		return id
	}
	id := len(anchorIDs)
	if id >= maxAnchorWords {
		panic("engine: too many anchor words")
	}
	anchorIDs[w] = id
	return id
}

func (b *wordBits) set(id int) { b[id>>6] |= 1 << uint(id&63) }

func (b *wordBits) has(id uint16) bool { return b[id>>6]&(1<<(id&63)) != 0 }

// meets reports whether one of the anchor words ids is in b.
func (b *wordBits) meets(ids []uint16) bool {
	for _, id := range ids {
		if b.has(id) {
			return true
		}
	}
	return false
}

// sparseBits is a set of anchor words as its non-zero words of
// wordBits: a group has a few anchor words, so testing it against a
// text's set is a step or two.
type sparseBits []struct {
	w    uint8
	bits uint64
}

func sparse(b *wordBits) sparseBits {
	var out sparseBits
	for i, x := range b {
		if x != 0 {
			out = append(out, struct {
				w    uint8
				bits uint64
			}{uint8(i), x})
		}
	}
	return out
}

// meetsSet reports whether one of the words of g is in b.
func (g sparseBits) meetsSet(b *wordBits) bool {
	for _, x := range g {
		if b[x.w]&x.bits != 0 {
			return true
		}
	}
	return false
}

// anchorSet is a's anchor words as a set, built on first use when a has
// a place for it (poisonDefault gives one to each text it matches), or
// nil.
func (a *Text) anchorSet() *wordBits {
	b := a.abits
	if b == nil || a.abitsDone {
		return b
	}
	*b = wordBits{}
	for _, id := range a.alist {
		b[id>>6] |= 1 << (id & 63)
	}
	a.abitsDone = true
	return b
}

// pat is one pattern with its anchors.
type pat struct {
	re      *regexp.Regexp
	groups  []wordBits   // each group must meet the text's words
	sparse  []sparseBits // groups, sparse
	words   [][]string   // the groups as written, for the signal's gate
	need    uint32       // character features the text must have
	literal string       // a literal the normalised text must contain
	// local: the pattern cannot cross a sentence, so it runs only on the
	// sentences that hold its anchors, not on the whole text
	local bool
}

// lit returns p requiring the literal s in the normalised text.
func (p pat) lit(s string) pat {
	p.literal = s
	return p
}

// P builds a pattern. anchors lists groups of words separated by ";", the
// words of a group by spaces: "ignore disregard; instructions rules".
// Placeholders in the pattern are expanded (see re).
func P(anchors, pattern string) pat {
	p := pat{re: re(pattern)}
	p.local = !strings.Contains(pattern, ".{") && !strings.Contains(pattern, "(?s)") && !strings.Contains(pattern, `\s`) && !strings.Contains(pattern, "\n")
	for _, g := range strings.Split(anchors, ";") {
		ws := strings.Fields(g)
		if len(ws) == 0 {
			continue
		}
		var b wordBits
		for _, w := range ws {
			b.set(anchorID(w))
		}
		p.groups = append(p.groups, b)
		p.sparse = append(p.sparse, sparse(&b))
		p.words = append(p.words, ws)
	}
	return p
}

// needs returns p requiring character features f.
func (p pat) needs(f uint32) pat {
	p.need |= f
	return p
}

// on reports whether p can match a.
func (p *pat) on(a *Text) bool {
	if a.flags&p.need != p.need {
		return false
	}
	if b := a.anchorSet(); b != nil {
		for _, g := range p.sparse {
			if !g.meetsSet(b) {
				return false
			}
		}
	} else {
		for i := range p.groups {
			if !p.groups[i].meets(a.alist) {
				return false
			}
		}
	}
	if p.literal != "" && !strings.Contains(a.norm, p.literal) {
		return false
	}
	return true
}

// onSentence reports whether sentence se holds p's anchors.
func (p *pat) onSentence(a *Text, se *sentence) bool {
	ids := a.alist[se.ai:se.aj]
	for i := range p.groups {
		if !p.groups[i].meets(ids) {
			return false
		}
	}
	return true
}

// find returns the leftmost match of p in a.norm, or nil. A local
// pattern runs on the sentences holding its anchors only.
func (p *pat) find(a *Text) []int {
	if !p.on(a) {
		return nil
	}
	if !p.local || len(p.groups) == 0 || len(a.sents) == 0 {
		return p.re.FindStringIndex(a.norm)
	}
	for k := range a.sents {
		se := &a.sents[k]
		if !p.onSentence(a, se) {
			continue
		}
		if loc := p.re.FindStringIndex(a.norm[se.i:se.j]); loc != nil {
			return []int{loc[0] + se.i, loc[1] + se.i}
		}
	}
	return nil
}

// findAll returns up to n matches with submatches, or nil.
func (p *pat) findAll(a *Text, n int) [][]int {
	if !p.on(a) {
		return nil
	}
	if !p.local || len(p.groups) == 0 || len(a.sents) == 0 {
		return p.re.FindAllStringSubmatchIndex(a.norm, n)
	}
	var out [][]int
	for k := range a.sents {
		se := &a.sents[k]
		if !p.onSentence(a, se) {
			continue
		}
		for _, loc := range p.re.FindAllStringSubmatchIndex(a.norm[se.i:se.j], n-len(out)) {
			for x := range loc {
				if loc[x] >= 0 {
					loc[x] += se.i
				}
			}
			out = append(out, loc)
		}
		if len(out) >= n {
			break
		}
	}
	return out
}

// firstPat returns the leftmost match of any pattern.
func firstPat(a *Text, ps []pat) (int, int, bool) {
	bi, bj, ok := 0, 0, false
	for k := range ps {
		if loc := ps[k].find(a); loc != nil && (!ok || loc[0] < bi) {
			bi, bj, ok = loc[0], loc[1], true
		}
	}
	return bi, bj, ok
}

// patSignal fires on the leftmost match of any pattern.
func patSignal(ps []pat, detail string) func(*Text) (string, string) {
	return func(a *Text) (string, string) {
		if i, j, ok := firstPat(a, ps); ok {
			return hit(a, i, j, detail)
		}
		return "", ""
	}
}
