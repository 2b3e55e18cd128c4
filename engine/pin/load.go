package pin

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync/atomic"
	"time"

	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// loadStream is Load without the tool list's tree, for a pin as Marshal
// writes it (entries with sorted keys and string values, canonical
// descriptors): each entry is read from its text, its stored
// descriptor written in canonical form straight from the text
// (canon.SourceEncoder) to check its hash, and that form kept for
// Tool.Descriptor to parse on first use. The rest of the document (the
// head, servers, acceptances) is read as loadTree reads it.
//
// It reports no errors: ok is false for anything it does not accept,
// every pin that does not verify among them, and Load then reads the pin
// with loadTree, which accepts the same pins, builds the same Pin and
// says what is wrong, where. So the errors are loadTree's, whatever the
// fast reader's reason.
//
// The Pin it returns holds nothing of the document's text, which is
// most of a large pin's size: each entry's strings and its canonical
// descriptor (the compact form, about half the stored one) are copied
// into one block per worker, and the rest of the document is read from
// a copy without the tool list.
func loadStream(file, src string) (*Pin, bool) {
	root, err := jsonv.ParseLazyString(src, "tools")
	if err != nil || root.Kind != jsonv.Object {
		return nil, false
	}
	tv, ok := root.Get("tools")
	if !ok || tv.Kind != jsonv.Raw {
		return nil, false
	}
	// The document without its tool list, parsed on its own: its values
	// are slices of a copy of that alone.
	rest := make([]byte, 0, len(src)-len(tv.Str)+2)
	rest = append(append(append(rest, src[:tv.Off]...), "[]"...), src[tv.Off+len(tv.Str):]...)
	head, err := jsonv.Parse(rest)
	if err != nil {
		return nil, false
	}
	r := &pinReader{file: file, data: rest}
	p, err := r.head(&head)
	if err != nil {
		return nil, false
	}
	if tv.Items == nil {
		return nil, false // not a list of entries
	}
	starts := make([]int, len(tv.Items))
	for i := range tv.Items {
		starts[i] = tv.Items[i].Off - tv.Off
	}
	tools, ok := streamTools(tv.Str, starts, p.Format)
	if !ok {
		return nil, false
	}
	// The index (Pin.index) is built as the keys are checked for one
	// used twice.
	p.byKey = make(map[string]*Tool, len(tools))
	for _, t := range tools {
		if p.byKey[t.Key] != nil {
			return nil, false
		}
		p.byKey[t.Key] = t
	}
	p.Tools = tools
	if p.Format >= Format2 {
		if r.servers(&head, p) != nil || r.acceptances(&head, p) != nil {
			return nil, false
		}
	}
	return p, true
}

// streamTools reads the tool entries at starts (offsets in src, the
// list's text, as jsonv.ParseLazy split it) on every CPU, each worker
// with its own encoder, and checks each entry ends where the next
// begins; ok is false if any entry is not accepted.
func streamTools(src string, starts []int, format int) ([]*Tool, bool) {
	n := len(starts)
	if n == 0 {
		return nil, true
	}
	tools := make([]*Tool, n)
	// One allocation for every entry, not one each.
	slab := make([]Tool, n)
	var failed atomic.Bool
	parallel(n, func(lo, hi int) {
		sr := streamReader{src: src, format: format}
		// What the entries keep is copied into one block: key, hash
		// and canonical descriptor, one after the other, at bases[i].
		var block strings.Builder
		// About half the entries' text (compact, without the other
		// fields); more is only reserved, not touched.
		upto := len(src)
		if hi < n {
			upto = starts[hi]
		}
		block.Grow((upto-starts[lo])*3/4 + 64)
		bases := make([]int, hi-lo)
		for i := lo; i < hi; i++ {
			if failed.Load() {
				return // another worker's entry failed: leave the rest unread
			}
			t := &slab[i]
			end, ok := sr.tool(starts[i], t)
			if ok {
				// The entry ends where the next begins (or the list does).
				next := len(src) - 1
				if i+1 < n {
					next = starts[i+1]
				}
				ok = stripSep(src, end) == next
			}
			if !ok {
				failed.Store(true)
				return
			}
			bases[i-lo] = block.Len()
			block.WriteString(t.Key)
			block.WriteString(t.Hash)
			block.Write(sr.enc.Buf)
			t.size = len(sr.enc.Buf)
			t.By, t.Note, t.At = sr.own(t.By, 0), sr.own(t.Note, 1), sr.own(t.At, 2)
			tools[i] = t
		}
		b := block.String()
		for i := lo; i < hi; i++ {
			t, at := &slab[i], bases[i-lo]
			k := len(t.Key)
			t.Key = b[at : at+k]
			t.Server, t.Name = t.Key[:len(t.Server)], t.Key[len(t.Server)+1:]
			t.Hash = b[at+k : at+k+len(t.Hash)]
			t.src = b[at+k+len(t.Hash) : at+k+len(t.Hash)+t.size]
		}
	})
	return tools, !failed.Load()
}

// stripSep skips whitespace, one comma and whitespace from off.
func stripSep(src string, off int) int {
	off = jsonv.SkipSpace(src, off)
	if off < len(src) && src[off] == ',' {
		off = jsonv.SkipSpace(src, off+1)
	}
	return off
}

type streamReader struct {
	src    string
	format int
	enc    canon.SourceEncoder
	// lastAt is the last approved_at checked: every entry of a pin
	// written at once has the same one.
	lastAt string
	// owned are the last approval strings copied (by, note, at): most
	// entries share them.
	owned [3]string
}

// own returns a copy of s that is not a slice of the document, shared
// with the last entry's when they are equal.
func (sr *streamReader) own(s string, k int) string {
	if s != sr.owned[k] {
		sr.owned[k] = strings.Clone(s)
	}
	return sr.owned[k]
}

// tool reads the tool entry at src[off] into t, with loadTree's checks
// (pinReader.tool and approval), and returns the offset just past it.
func (sr *streamReader) tool(off int, t *Tool) (int, bool) {
	src := sr.src
	if src[off] != '{' {
		return off, false
	}
	var digest string
	var has struct{ key, server, name, hash, digest, desc, by, note, at bool }
	var descEnd int
	var sum [sha256.Size]byte
	i := jsonv.SkipSpace(src, off+1)
	prev := ""
	for n := 0; ; n++ {
		key, end, ok := jsonv.ReadString(src, i)
		if !ok || (n > 0 && key <= prev) {
			return i, false
		}
		prev = key
		i = jsonv.SkipSpace(src, end)
		if i >= len(src) || src[i] != ':' {
			return i, false
		}
		i = jsonv.SkipSpace(src, i+1)
		if key == "descriptor" {
			if i >= len(src) || src[i] != '{' {
				return i, false
			}
			if descEnd, ok = sr.enc.Encode(src, i, 3); !ok {
				return i, false
			}
			sum = sha256.Sum256(sr.enc.Buf)
			has.desc = true
			i = descEnd
		} else {
			s, end, ok := jsonv.ReadString(src, i)
			if !ok {
				return i, false
			}
			i = end
			switch key {
			case "key":
				t.Key, has.key = s, true
			case "server":
				t.Server, has.server = s, true
			case "name":
				t.Name, has.name = s, true
			case "hash":
				t.Hash, has.hash = s, true
			case "digest":
				digest, has.digest = s, true
			case "approved_by":
				t.By, has.by = s, true
			case "approved_note":
				t.Note, has.note = s, true
			case "approved_at":
				if sr.format >= Format2 {
					t.At, has.at = s, true
				}
			}
		}
		i = jsonv.SkipSpace(src, i)
		if i >= len(src) {
			return i, false
		}
		if src[i] == '}' {
			i++
			break
		}
		if src[i] != ',' {
			return i, false
		}
		i = jsonv.SkipSpace(src, i+1)
	}
	if !has.key || !has.server || !has.name || !has.hash || !has.digest || !has.desc {
		return i, false
	}
	if len(t.Key) != len(t.Server)+1+len(t.Name) || !strings.HasPrefix(t.Key, t.Server) || t.Key[len(t.Server)] != '/' || !strings.HasSuffix(t.Key, t.Name) {
		return i, false
	}
	if !hexHash.MatchString(t.Hash) || digest != t.Hash[:12] {
		return i, false
	}
	var got [2 * sha256.Size]byte
	hex.Encode(got[:], sum[:])
	if string(got[:]) != t.Hash {
		return i, false
	}
	if !sr.descriptorFields(t) {
		return i, false
	}
	if sr.format >= Format2 {
		if !has.by || !has.note || !has.at {
			return i, false
		}
		if t.At != "" && t.At != sr.lastAt {
			at, err := time.Parse(time.RFC3339Nano, t.At)
			if err != nil || !strings.HasSuffix(t.At, "Z") || at.Location() != time.UTC {
				return i, false
			}
			sr.lastAt = t.At
		}
	}
	return i, true
}

// descriptorFields checks the stored descriptor's members (sr.enc.Top)
// as pinReader.tool does: its name is the entry's, it has a description
// and an input schema, and in format 1 nothing else.
func (sr *streamReader) descriptorFields(t *Tool) bool {
	var name, desc, schema bool
	for _, m := range sr.enc.Top {
		switch m.Key {
		case "name":
			s, _, ok := jsonv.ReadString(sr.src, m.Off)
			name = ok && s == canon.Strip(t.Name)
		case "description":
			desc = true
		case "input_schema":
			schema = true
		}
	}
	if sr.format == Format1 && len(sr.enc.Top) != 3 {
		return false
	}
	return name && desc && schema
}
