package detect

// featureTable holds the lexicon for Text.sentences, which looks up
// every word of every sentence and most of its two- and three-word
// phrases: an open-addressing hash table, at most a quarter full, with an
// 8-bit tag per slot (8 KB for the lexicon, so the tags stay in the
// nearest cache), so a word that is not there (most of them) costs one
// hash and one load, and one that is there one string compare. A slot's
// entry is an index into a dense list. It answers what the lexicon map
// answers (TestFeatureTableMatchesLexicon) and is built once, after
// every lex call.
type featureTable struct {
	shift uint    // 64 minus the table's bits: a hash's top bits are its slot
	tags  []uint8 // 0 for an empty slot
	at    []uint16
	ents  []featureSlot
}

type featureSlot struct {
	key string
	f   feature
}

// wordHash hashes a word: its first and last eight bytes (four of a
// shorter word, all of a word under four bytes) and its length, mixed by
// one multiply. Words alike in those are
// told apart by the key compare.
func wordHash(w string) uint64 {
	n := len(w)
	var x uint64
	if n >= 8 {
		x = le64(w) ^ le64(w[n-8:])*0xff51afd7ed558ccd
	} else if n >= 4 {
		// two four-byte reads, overlapping when n < 8
		x = le32(w) | le32(w[n-4:])<<32
	} else if n > 0 {
		x = uint64(w[0]) | uint64(w[n>>1])<<8 | uint64(w[n-1])<<16
	}
	return (x ^ uint64(n)<<58) * 0x9e3779b97f4a7c15
}

// le64 and le32 read the first eight and four bytes of s, little-endian
// (wordHash and shapeHash).
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 | uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint64 {
	_ = s[3]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24
}

func newFeatureTable(m map[string]feature) *featureTable {
	bits := uint(4)
	for 1<<bits < 4*len(m) {
		bits++
	}
	t := &featureTable{shift: 64 - bits, tags: make([]uint8, 1<<bits), at: make([]uint16, 1<<bits)}
	if len(m) > 1<<16 {
		panic("featureTable: more than 65,536 words")
	}
	mask := uint64(len(t.tags) - 1)
	for w, f := range m {
		h := wordHash(w)
		i := h >> t.shift
		for t.tags[i] != 0 {
			i = (i + 1) & mask
		}
		t.tags[i] = t.tag(h)
		t.at[i] = uint16(len(t.ents))
		t.ents = append(t.ents, featureSlot{w, f})
	}
	return t
}

// tag is the slot tag of hash h: the 8 bits below the slot bits, never 0.
func (t *featureTable) tag(h uint64) uint8 { return uint8(h>>(t.shift-8)) | 1 }

// get returns the features of w, 0 when the table does not hold it.
func (t *featureTable) get(w string) feature {
	h := wordHash(w)
	tag := t.tag(h)
	mask := uint64(len(t.tags) - 1)
	for i := h >> t.shift; ; i = (i + 1) & mask {
		switch t.tags[i] {
		case 0:
			return 0
		case tag:
			if e := &t.ents[t.at[i]]; e.key == w {
				return e.f
			}
		}
	}
}
