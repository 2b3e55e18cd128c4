package detect

import (
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// Anchors keep the patterns cheap: a pattern runs only on a text that
// holds at least one word of each of its anchor groups (and its required
// character features). The words of a text are looked up once, when it is
// normalised, into a bit set; checking a pattern's anchors is a few AND
// operations, so most texts never reach a regular expression.

// wordBits is a set of anchor words, by id.
type wordBits [32]uint64

const maxAnchorWords = len(wordBits{}) * 64

// anchorIDs numbers every anchor word; filled while the package's
// patterns are built, read-only afterwards.
var anchorIDs = map[string]int{}

// An anchor is one word as the automaton reads it (isAnchorWordByte). A
// compound written with a hyphen or a dot ("third-party",
// "git-credentials") never arrives whole: it is anchored on its longest
// part, which every text that holds the compound also holds, so a gate
// stays open wherever its expression can match.
func anchorID(w string) int {
	w = anchorPart(w)
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

// anchorPart returns w's longest run of word bytes (w itself when it is
// one word).
func anchorPart(w string) string {
	best, start := "", -1
	for i := 0; i <= len(w); i++ {
		if i < len(w) && isAnchorWordByte(w[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start > len(best) {
			best = w[start:i]
		}
		start = -1
	}
	if best == "" {
		panic("engine: anchor word without a letter: " + w)
	}
	return best
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

// Group sets. Every anchor group of every pattern has an id (gid), and
// groupsOf maps an anchor word to the groups it belongs to, as a bit set
// of gids. A text's group set, the union over its anchor words, is built
// once (groupSet); a pattern's gate is then one bit test per group.
var (
	groupWords [][]int  // gid: the group's anchor word ids
	groupsOf   []uint64 // anchor id*groupWidth: its groups, once built
	groupWidth int      // uint64 words per group set; 0 until built
	// builtGroups is the number of groups in groupsOf
	builtGroups int
)

// buildGroupSets fills groupsOf for the groups known when it runs (the
// end of the signal table's init); later groups are tested word by word.
func buildGroupSets() {
	groupWidth = (len(groupWords) + 63) / 64
	builtGroups = len(groupWords)
	groupsOf = make([]uint64, maxAnchorWords*groupWidth)
	for g, ws := range groupWords {
		for _, id := range ws {
			groupsOf[id*groupWidth+g>>6] |= 1 << uint(g&63)
		}
	}
}

// groupSet is a's group set, built on first use when a has a place for
// it (poisonDefault gives one to each text it matches), or nil.
func (a *Text) groupSet() []uint64 {
	b := a.gset
	if b == nil || a.gsetDone {
		return b
	}
	clear(b)
	for _, id := range a.alist {
		row := groupsOf[int(id)*groupWidth : int(id)*groupWidth+groupWidth]
		for k := range b {
			b[k] |= row[k]
		}
	}
	a.gsetDone = true
	return b
}

// pat is one pattern with its anchors.
type pat struct {
	re      *lazyRe
	groups  []wordBits // each group must meet the text's words
	gids    []int      // the groups' ids (see groupSet)
	last    int        // the last of gids, or -1
	words   [][]string // the groups as written, for the signal's gate
	need    uint32     // character features the text must have
	literal string     // a literal the normalised text must contain
	// local: the pattern cannot cross a sentence, so it runs only on the
	// sentences that hold its anchors, not on the whole text
	local bool
	pf    *patFilter // the expression's prefilter, worked out on first use
}

// patFilter is a pattern's prefilter (see prefilter.go), worked out from
// its expression the first time the pattern runs, as the expression is
// compiled then: a text or sentence that holds none of its strings is
// not searched, and one that holds k of them (counting every place) has
// at most k matches, so a search for up to n matches asks for no more
// than k and stops after the last one there can be.
type patFilter struct {
	once sync.Once
	p    prefilter
}

// filter is p's prefilter; a pattern not built by P has none.
func (p *pat) filter() *prefilter {
	if p.pf == nil {
		return &prefilter{}
	}
	p.pf.once.Do(func() { p.pf.p = prefilterOf(p.re) })
	return &p.pf.p
}

// lit returns p requiring the literal s in the normalised text.
func (p pat) lit(s string) pat {
	p.literal = s
	return p
}

// patsAll lists every pattern as P built it (before lit or needs), for
// the test that compares their searches with and without prefilters.
var patsAll []*pat

// P builds a pattern. anchors lists groups of words separated by ";", the
// words of a group by spaces: "ignore disregard; instructions rules".
// Placeholders in the pattern are expanded (see re).
func P(anchors, pattern string) pat {
	return pPrep(anchors, pattern, nil)
}

// pPrep is P for a pattern whose source prep turns into the expression
// when it is first compiled (nil: re's placeholders only).
func pPrep(anchors, pattern string, prep func(string) string) pat {
	var l *lazyRe
	if prep == nil {
		l = re(pattern)
	} else {
		l = lazyPrep(pattern, func(s string) string { return expand.Replace(prep(s)) })
	}
	p := pat{re: l, last: -1, pf: &patFilter{}}
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
		ids := make([]int, len(ws))
		for k, w := range ws {
			ids[k] = anchorID(w)
		}
		p.last = len(groupWords)
		p.gids = append(p.gids, p.last)
		groupWords = append(groupWords, ids)
		p.groups = append(p.groups, b)
		p.words = append(p.words, ws)
	}
	patsAll = append(patsAll, &p)
	return p
}

// needs returns p requiring character features f.
func (p pat) needs(f uint32) pat {
	p.need |= f
	return p
}

// on reports whether p can match a. It is small enough to be inlined
// into find and findAll, which most texts leave here: a text a signal
// runs on has its group set built (poisonDefault), so the gate is a few
// bit tests.
func (p *pat) on(a *Text) bool {
	if a.flags&p.need != p.need {
		return false
	}
	if a.gsetDone && p.last < builtGroups {
		for _, g := range p.gids {
			if a.gset[g>>6]&(1<<uint(g&63)) == 0 {
				return false
			}
		}
		return p.literal == "" || strings.Contains(a.norm, p.literal)
	}
	return p.onSlow(a)
}

// onSlow is on for a text without a group set.
func (p *pat) onSlow(a *Text) bool {
	if a.gset != nil && p.last < builtGroups {
		a.groupSet()
		return p.on(a)
	}
	for i := range p.groups {
		if !p.groups[i].meets(a.alist) {
			return false
		}
	}
	return p.literal == "" || strings.Contains(a.norm, p.literal)
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
	return p.findOn(a)
}

// findOn is find for a text that passes p's gate.
func (p *pat) findOn(a *Text) []int {
	return p.findIn(a, true)
}

// findIn is findOn, with the prefilter in front of the expression when
// filtered (TestPatternFiltersChangeNothing compares the two).
func (p *pat) findIn(a *Text, filtered bool) []int {
	pf := p.filter()
	if !p.local || len(p.groups) == 0 || len(a.sents) == 0 {
		if filtered && !pf.may(a.norm) {
			return nil
		}
		return p.re.FindStringIndex(a.norm)
	}
	for k := range a.sents {
		se := &a.sents[k]
		if !p.onSentence(a, se) || filtered && !pf.may(a.norm[se.i:se.j]) {
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
	return p.findAllOn(a, n)
}

// findAllOn is findAll for a text that passes p's gate.
func (p *pat) findAllOn(a *Text, n int) [][]int {
	return p.findAllIn(a, n, true)
}

// findAllIn is findAllOn, with the prefilter bounding each search when
// filtered (TestPatternFiltersChangeNothing compares the two).
func (p *pat) findAllIn(a *Text, n int, filtered bool) [][]int {
	pf := p.filter()
	if !p.local || len(p.groups) == 0 || len(a.sents) == 0 {
		m := n
		if filtered {
			if m = pf.most(a.norm, n); m == 0 {
				return nil
			}
		}
		return p.re.FindAllStringSubmatchIndex(a.norm, m)
	}
	var out [][]int
	for k := range a.sents {
		se := &a.sents[k]
		if !p.onSentence(a, se) {
			continue
		}
		m := n - len(out)
		if filtered {
			if m = pf.most(a.norm[se.i:se.j], m); m == 0 {
				continue
			}
		}
		for _, loc := range p.re.FindAllStringSubmatchIndex(a.norm[se.i:se.j], m) {
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

// patIndex finds the first pattern of a long list (the foreign
// instruction patterns) that matches a text. Only a pattern whose first
// anchor group the text's group set holds can match (find is nil for the
// others, see pat.on), so with a group set built the index tries those,
// and the patterns with no anchors (which character features gate),
// alone, in list order, instead of gating every pattern in turn. It is
// built on first use, when every pattern has its groups; a text with no
// group set, or a list with a pattern whose groups are not built into
// group sets, is read pattern by pattern.
type patIndex struct {
	once sync.Once
	list func() []*pat
	pats []*pat
	mask []uint64 // group-set words: the patterns' first groups
	at   []int32  // gid -> the list index of the pattern it is the first group of, or -1
	free []int32  // the list indexes of the patterns with no anchors
	ok   bool
}

func newPatIndex(list func() []*pat) *patIndex { return &patIndex{list: list} }

func (x *patIndex) build() {
	x.pats = x.list()
	x.ok = groupWidth > 0
	x.mask = make([]uint64, groupWidth)
	x.at = make([]int32, builtGroups)
	for i := range x.at {
		x.at[i] = -1
	}
	for k, p := range x.pats {
		if len(p.gids) == 0 {
			x.free = append(x.free, int32(k))
			continue
		}
		if p.last >= builtGroups || x.at[p.gids[0]] >= 0 {
			x.ok = false
			return
		}
		g := p.gids[0]
		x.mask[g>>6] |= 1 << uint(g&63)
		x.at[g] = int32(k)
	}
}

// first returns the list index of the first pattern that matches a, and
// its match, or -1 and nil.
func (x *patIndex) first(a *Text) (int, []int) {
	x.once.Do(x.build)
	if !x.ok || !a.gsetDone {
		return x.scan(a)
	}
	var buf [64]int32
	cand := buf[:0]
	for _, k := range x.free {
		if p := x.pats[k]; a.flags&p.need == p.need { // as p.on reads it first
			cand = append(cand, k)
		}
	}
	for w, m := range x.mask {
		for m &= a.gset[w]; m != 0; m &= m - 1 {
			cand = append(cand, x.at[w<<6+bits.TrailingZeros64(m)])
		}
	}
	slices.Sort(cand)
	for _, k := range cand {
		if loc := x.pats[k].find(a); loc != nil {
			return int(k), loc
		}
	}
	return -1, nil
}

// scan is first pattern by pattern.
func (x *patIndex) scan(a *Text) (int, []int) {
	for k, p := range x.pats {
		if loc := p.find(a); loc != nil {
			return k, loc
		}
	}
	return -1, nil
}
