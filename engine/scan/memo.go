package scan

import (
	"crypto/sha256"
	"weak"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// toolMemo is what the cache knows of one tool value, known by its
// identity: the digest of its descriptor, and the cache entries its last
// scan took its pinned-form hash and POISON result from. A file parsed
// again through an inventory.Reuser hands back the same *engine.Tool
// values for the servers that did not change, and for those a scan then
// takes its digest, hash and finding from here: it neither digests them
// nor looks them up.
//
// The memo keeps no tool alive: it holds a weak pointer to the tool (weak
// pointers are equal only when made from the same value, and one to a
// collected value gives nil, so a new tool where a collected one was is
// never taken for it) and one to the Raw value it digested, which must
// still be the tool's.
type toolMemo struct {
	w   weak.Pointer[engine.Tool]
	raw weak.Pointer[jsonv.Value]
	gen uint64 // the last scan that met it
	pos int    // its place in that scan's tools
	d   digest
	// The entries its last scan used, or nil. An entry that has left its
	// table (gone) is not used again.
	hash   *entry[hashKey, string]
	poison *entry[poisonKey, *poisonResult]
	// Its pin entry (nil: none) in the file's pin of epoch, and whether
	// its hash is that entry's (same).
	epoch uint64
	pt    *pin.Tool
	same  bool
}

// fileMemo is what the cache knows of one file's tools: the tools of its
// last scan, in order and by weak pointer, and the pin that scan
// compared them with.
type fileMemo struct {
	prev    []*toolMemo
	at      map[weak.Pointer[engine.Tool]]*toolMemo
	pn      *pin.Pin
	entries int    // len(pn.Tools) then: a guard, pins are not changed
	epoch   uint64 // counts the pins the file was compared with
}

// known is what a scan through the cache knows of its tools, in order.
type known struct {
	ms []*toolMemo
	fm *fileMemo
}

// pinEntries sets each tool's pin entry, pn.ToolOf(server, name), and
// reports whether its hash is the entry's, from the memo for the tools
// the file's last scan compared with the same pin (pins are replaced,
// never changed, while a cache compares with them).
func (k *known) pinEntries(pn *pin.Pin, tools []*engine.Tool, hashes []string, entries []*pin.Tool, same []bool) {
	if k.fm.pn != pn || k.fm.entries != len(pn.Tools) {
		k.fm.pn, k.fm.entries = pn, len(pn.Tools)
		k.fm.epoch++
	}
	for i, t := range tools {
		m := k.ms[i]
		if m.epoch != k.fm.epoch {
			m.epoch = k.fm.epoch
			m.pt = pn.ToolOf(t.Server, t.Name)
			m.same = m.pt != nil && m.pt.Hash == hashes[i]
		}
		entries[i], same[i] = m.pt, m.same
	}
}

// know returns the memo of every tool of a scan of file, digesting the
// tools it has not met before (on every CPU), and forgets the tools of
// the file's last scan that this one does not have.
//
// Tools a Reuser kept come in the order the last scan had them, so each
// is first looked for where the last one found was followed (a weak
// pointer's value, no lookup); only the others make a weak pointer and
// look it up: the tools of the servers a change touched, and the first
// one after them.
func (c *Cache) know(file string, tools []*engine.Tool) *known {
	if c.memos == nil {
		c.memos = map[string]*fileMemo{}
	}
	fm := c.memos[file]
	if fm == nil {
		fm = &fileMemo{at: make(map[weak.Pointer[engine.Tool]]*toolMemo, len(tools))}
		c.memos[file] = fm
	}
	kn := &known{ms: make([]*toolMemo, len(tools)), fm: fm}
	var miss []int // a tool met for the first time, once each
	next := 0      // where the last tool found was followed in prev
	for i, t := range tools {
		var m *toolMemo
		if next < len(fm.prev) && fm.prev[next].w.Value() == t {
			m = fm.prev[next]
		} else {
			w := weak.Make(t)
			if m = fm.at[w]; m == nil {
				m = &toolMemo{w: w}
				fm.at[w] = m
			}
		}
		if m.gen != c.gen && m.pos < len(fm.prev) && fm.prev[m.pos] == m {
			next = m.pos + 1
		}
		if m.raw.Value() != t.Raw || m.gen == 0 {
			// New, or its Raw was replaced: digested below.
			*m = toolMemo{w: m.w, raw: weak.Make(t.Raw)}
			miss = append(miss, i)
		}
		m.gen, m.pos = c.gen, i
		kn.ms[i] = m
	}
	parallel(len(miss), 256, func(lo, hi int) {
		var buf []byte
		for _, i := range miss[lo:hi] {
			buf = appendDigestForm(buf[:0], tools[i].Raw)
			kn.ms[i].d = sha256.Sum256(buf)
		}
	})
	for _, m := range fm.prev {
		if m.gen != c.gen {
			delete(fm.at, m.w)
		}
	}
	fm.prev = kn.ms
	if len(fm.at) > c.max() {
		delete(c.memos, file) // a file larger than the bound is not remembered
	}
	return kn
}
