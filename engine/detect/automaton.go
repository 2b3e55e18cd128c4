package detect

// The anchor automaton: every anchor word in one deterministic automaton
// over the normalised text's bytes, so a text's anchors are found in one
// pass with one table step per byte and no hashing. It is the
// Aho-Corasick automaton of the anchor words restricted to whole words:
// a match may only start at a word start, so every failure link leads
// back to the root at the next word boundary and the goto function alone
// is the automaton. A word byte no anchor uses moves to the dead state
// until the word ends; at a word's end the state says which anchor, if
// any, the word is. Patterns then run only on the sentences whose
// anchors they need (pat.find), and signals only on texts holding one of
// their words (candidates).
//
// A state is the offset of its row in step, so a step is one load with
// no multiply: step[st+class] for a word byte's class, and the row's
// column 0 (the class of non-word bytes, which never steps) holds the
// anchor the state accepts.

type anchorAutomaton struct {
	class [256]uint8 // 0: not a word byte; 1: a word byte in no anchor; 2..: the anchor bytes
	width int32      // classes per state
	// step[st+c], c >= 1: the next state (a row offset; 0 is the dead
	// row, which steps to itself); step[st]: anchor id + 1, or 0
	step []int32
	root int32 // the state at a word start
}

// accept is the anchor id + 1 that state st accepts, or 0.
func (m *anchorAutomaton) accept(st int32) int32 { return m.step[st] }

var anchorAuto *anchorAutomaton

// isAnchorWordByte is anchorWords' word byte: letters, digits, '_', '\”
// and every byte of a multi-byte rune.
func isAnchorWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80 || c == '_' || c == '\''
}

// buildAnchorAutomaton compiles the anchor words known when it runs
// (the end of the signal table's init).
func buildAnchorAutomaton() *anchorAutomaton {
	m := &anchorAutomaton{}
	for c := 0; c < 256; c++ {
		if isAnchorWordByte(byte(c)) {
			m.class[c] = 1
		}
	}
	n := uint8(2)
	for w := range anchorIDs {
		for i := 0; i < len(w); i++ {
			if c := w[i]; m.class[c] == 1 {
				m.class[c] = n
				n++
			}
		}
	}
	m.width = int32(n)
	// the trie, states numbered 0 (dead), 1 (root), ...
	next := make([]int32, 2*m.width, 64*m.width)
	accept := make([]int32, 2)
	for w, id := range anchorIDs {
		ok := true
		for i := 0; i < len(w); i++ {
			if m.class[w[i]] < 2 {
				ok = false // a word with a separator inside never matches a token
			}
		}
		if !ok {
			continue
		}
		st := int32(1)
		for i := 0; i < len(w); i++ {
			k := st*m.width + int32(m.class[w[i]])
			if next[k] == 0 {
				next[k] = int32(len(accept))
				accept = append(accept, 0)
				next = append(next, make([]int32, m.width)...)
			}
			st = next[k]
		}
		accept[st] = int32(id) + 1
	}
	// rows at offsets, acceptance in column 0
	m.step = make([]int32, len(next))
	for st := range accept {
		row := int32(st) * m.width
		m.step[row] = accept[st]
		for c := int32(1); c < m.width; c++ {
			m.step[row+c] = next[row+c] * m.width
		}
	}
	m.root = m.width
	return m
}
