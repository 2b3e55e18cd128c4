package detect

import "strings"

// Needles: the plain substrings the sentence tests look for before they
// run a pattern ("if ", "ask", " rather than the "), read for a whole
// text in one pass of one automaton instead of one strings.Contains per
// substring per sentence. A test names its substrings once, in a package
// variable (anySub("if ", "when")); the first test that asks a text
// (Text.nbAt, Text.needles) runs the automaton over the normalised text,
// which keeps, for the text and for each sentence, the set of needles
// found inside it, so a test is a few word ANDs. The answer is strings.Contains' answer for every needle
// and every sentence (TestNeedlesMatchContains, FuzzNeedles): a needle
// is a substring, found anywhere, across words and word boundaries.
//
// The automaton is the Aho-Corasick automaton of the needles with its
// failure links folded into the step table, so a step is one load per
// byte: bytes no needle holds share one class, which steps to the root.

const needleWords = 8 // a set holds up to 512 needles

// A needleSet is a set of needles, by id.
type needleSet [needleWords]uint64

// any reports whether b holds one of m's needles.
func (b *needleSet) any(m *needleSet) bool {
	return b[0]&m[0]|b[1]&m[1]|b[2]&m[2]|b[3]&m[3]|b[4]&m[4]|b[5]&m[5]|b[6]&m[6]|b[7]&m[7] != 0
}

func (b *needleSet) set(id uint16) { b[id>>6] |= 1 << (id & 63) }

// needleList holds the needles by id; needleIDs the ids by needle.
var (
	needleList []string
	needleIDs  = map[string]uint16{}
)

// registerNeedles returns the mask of ps, registering the needles it
// has not seen. It is called from package variable initialisers only
// (through anySub), which all run before the init that builds the
// automaton.
func registerNeedles(ps ...string) needleSet {
	if needleAuto != nil {
		panic("registerNeedles: called after the needle automaton was built")
	}
	var m needleSet
	for _, p := range ps {
		if p == "" {
			panic("needles: an empty needle")
		}
		id, ok := needleIDs[p]
		if !ok {
			if len(needleList) == needleWords*64 {
				panic("needles: more than 512 needles; raise needleWords")
			}
			id = uint16(len(needleList))
			needleList = append(needleList, p)
			needleIDs[p] = id
		}
		m.set(id)
	}
	return m
}

type needleAutomaton struct {
	class [256]uint8 // 0: a byte no needle holds
	width int32      // classes per state
	// step[st+c]: the next state, a row offset, negated when that state
	// ends a needle (the root, row 0, ends none); 16 bits keep the
	// table in the nearest caches
	step []int16
	// out[st/width] lists the needles a state ends (its own and those
	// of its failure chain), as ids into needleList
	out    [][]uint16
	lens   []int32 // needle lengths by id
	maxLen int32   // the longest needle
}

var needleAuto *needleAutomaton

func init() { needleAuto = buildNeedleAutomaton(needleList) }

func buildNeedleAutomaton(list []string) *needleAutomaton {
	m := &needleAutomaton{lens: make([]int32, len(list))}
	n := uint8(1)
	for id, p := range list {
		m.lens[id] = int32(len(p))
		m.maxLen = max(m.maxLen, int32(len(p)))
		for i := 0; i < len(p); i++ {
			if c := p[i]; m.class[c] == 0 {
				if n == 255 {
					panic("needles: more than 254 distinct bytes")
				}
				m.class[c] = n
				n++
			}
		}
	}
	w := int(n)
	m.width = int32(w)
	// the trie: goto[state*w+class], -1 for none; state 0 is the root
	goTo := make([]int32, w, 64*w)
	for i := range goTo {
		goTo[i] = -1
	}
	outs := [][]uint16{nil}
	for id, p := range list {
		st := 0
		for i := 0; i < len(p); i++ {
			c := int(m.class[p[i]])
			if goTo[st*w+c] < 0 {
				goTo[st*w+c] = int32(len(outs))
				outs = append(outs, nil)
				for k := 0; k < w; k++ {
					goTo = append(goTo, -1)
				}
			}
			st = int(goTo[st*w+c])
		}
		outs[st] = append(outs[st], uint16(id))
	}
	// breadth first: each state's failure link and its full step row
	states := len(outs)
	fail := make([]int32, states)
	delta := make([]int32, states*w)
	queue := make([]int32, 0, states)
	for c := 0; c < w; c++ { // the root's row: a missing step stays at the root
		if t := goTo[c]; t >= 0 {
			delta[c] = t
			queue = append(queue, t) // its failure link is the root
		}
	}
	for q := 0; q < len(queue); q++ {
		st := int(queue[q])
		outs[st] = append(outs[st], outs[fail[st]]...)
		for c := 0; c < w; c++ {
			if t := goTo[st*w+c]; t >= 0 {
				delta[st*w+c] = t
				fail[t] = delta[int(fail[st])*w+c]
				queue = append(queue, t)
			} else {
				delta[st*w+c] = delta[int(fail[st])*w+c]
			}
		}
	}
	m.out = outs
	if states*w > 1<<15 {
		panic("needles: the automaton outgrew 16-bit row offsets")
	}
	m.step = make([]int16, states*w)
	for i, t := range delta {
		v := int16(t * int32(w))
		if len(outs[t]) > 0 {
			v = -v
		}
		m.step[i] = v
	}
	return m
}

// scan sets in all the needles s holds and in each sentence of ss (spans
// of s, in order) the needles inside it. A step waits for the one
// before it, so a text of some length is read as two halves at once,
// each its own chain of steps: the second starts maxLen-1 bytes early
// (a needle that ends in it starts no earlier) and counts only the
// needles that end in it.
func (m *needleAutomaton) scan(s string, ss []sentence, all *needleSet) {
	step, class, w := m.step, &m.class, m.width
	mid, b := len(s), len(s) // a short text: one chain, and the second reads nothing
	if len(s) >= 64 {
		mid = len(s) / 2
		b = max(0, mid-int(m.maxLen)+1) // where the second half's reading starts
	}
	var st, st2 int32
	si, si2 := 0, 0
	k := 0
	for ; k < mid && b+k < len(s); k++ {
		v := int32(step[st+int32(class[s[k]])])
		v2 := int32(step[st2+int32(class[s[b+k]])])
		if v < 0 {
			v = -v
			m.found(v/w, k+1, ss, &si, all)
		}
		if v2 < 0 {
			v2 = -v2
			if b+k >= mid {
				m.found(v2/w, b+k+1, ss, &si2, all)
			}
		}
		st, st2 = v, v2
	}
	for ; k < mid; k++ {
		v := int32(step[st+int32(class[s[k]])])
		if v < 0 {
			v = -v
			m.found(v/w, k+1, ss, &si, all)
		}
		st = v
	}
	for k2 := b + k; k2 < len(s); k2++ {
		v := int32(step[st2+int32(class[s[k2]])])
		if v < 0 {
			v = -v
			if k2 >= mid {
				m.found(v/w, k2+1, ss, &si2, all)
			}
		}
		st2 = v
	}
}

// found records the needles state q ends at end: in all, and in the
// sentence holding the needle (*si is the first sentence that may).
func (m *needleAutomaton) found(q int32, end int, ss []sentence, si *int, all *needleSet) {
	for _, id := range m.out[q] {
		all.set(id)
		start := end - int(m.lens[id])
		for *si < len(ss) && ss[*si].j < end {
			*si++
		}
		if *si < len(ss) && ss[*si].i <= start {
			ss[*si].nb.set(id)
		}
	}
}

// A subs is a list of needles a test asks about: whether a text holds
// one of them, read from the text (in) or from a needle set (at).
type subs struct {
	words []string
	m     needleSet
	// span: no word can cross from one sentence into the next (none
	// starts with a blank, holds a line break or a sentence end followed
	// by a blank), so the words of a run of sentences are the words of
	// its sentences (atSpan)
	span bool
}

// anySub returns the subs of ws (from package variable initialisers).
func anySub(ws ...string) subs {
	g := subs{words: ws, m: registerNeedles(ws...), span: true}
	for _, w := range ws {
		g.span = g.span && inSentence(w)
	}
	return g
}

// inSentence reports a needle that cannot cross from one sentence into
// the next: the gap splitSpans leaves between two sentences is one blank
// after a sentence end or a line break, so a needle that crosses starts
// with a blank or holds a line break or a sentence end and a blank.
func inSentence(w string) bool {
	return w != "" && w[0] != ' ' && !strings.Contains(w, "\n") && !strings.Contains(w, ". ") && !strings.Contains(w, "! ") && !strings.Contains(w, "? ") && !strings.Contains(w, "; ")
}

// in reports whether t contains one of g's words.
func (g *subs) in(t string) bool { return containsAny(t, g.words...) }

// at reports whether b holds one of g's words.
func (g *subs) at(b *needleSet) bool { return b.any(&g.m) }

// atSpan reports whether the text from the start of sentence lo to the end of
// sentence hi of a holds one of g's words. Sentences are split at a line break or
// after a sentence end and one blank (splitSpans), so only a word g.span
// rules out could cross the gap.
func (g *subs) atSpan(a *Text, lo, hi int) bool {
	if !g.span {
		panic("subs.atSpan: a word that can cross sentences")
	}
	for n := lo; n <= hi; n++ {
		if a.nbAt(n).any(&g.m) {
			return true
		}
	}
	return false
}

// scanNeedles reads the needles of a's text and of each sentence, once:
// on the first question a test asks, so a text no needle test reads is
// not scanned.
func (a *Text) scanNeedles() {
	a.nbDone = true
	a.allN = needleSet{}
	needleAuto.scan(a.norm, a.sentences(), &a.allN)
}

// needles returns the needles of the whole text.
func (a *Text) needles() *needleSet {
	if !a.nbDone {
		a.scanNeedles()
	}
	return &a.allN
}

// nbAt returns the needles of sentence n.
func (a *Text) nbAt(n int) *needleSet {
	if !a.nbDone {
		a.scanNeedles()
	}
	return &a.sents[n].nb
}
