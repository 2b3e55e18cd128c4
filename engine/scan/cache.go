package scan

import (
	"crypto/sha256"
	"encoding/binary"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// DefaultCacheEntries bounds a zero Cache.
const DefaultCacheEntries = 50000

// Cache keeps, across scans, what a scan computes from one tool alone: the
// hash of its pinned form and its POISON finding, and, for a file, which
// of its tools' names collide (the shadow grouping). Entries are keyed by
// the tool's digest (the SHA-256 of its descriptor exactly as parsed:
// every field, strings unstripped, members in file order) with the pin
// format and exclusions, or the tool's key and the rule set, and the
// shadow groups by every server's and tool's name, so a scan through a
// cache reports exactly what one without it does, and a rescan of a file
// where one tool changed costs that tool's detection (plus the parse and
// the digests).
//
// The cache holds what the last scan of each file (Inventory.File) used
// and nothing else: when a file is scanned again, the entries only its
// previous scan used are dropped (so a changed tool's old results go),
// and Forget drops a file's entries when the file goes. Strings kept are
// copies, so an entry never keeps a parsed file's text alive.
//
// A file's tools are also known by identity (see toolMemo): a tool value
// scanned again (an inventory.Reuser hands back the servers a change did
// not touch) is neither digested nor looked up again, and meets its pin
// entry without a lookup while the pin is the same. So a tool value, its
// Raw tree (offsets aside) and a pin a scan through a Cache has read must
// not be changed afterwards: parse anew, or build a new pin, instead (the
// service and the Reuser do).
//
// The zero Cache is ready, bounded by DefaultCacheEntries. A Cache is for
// one goroutine at a time (the service's scan loop); Scan reads it from
// several of its own goroutines only while it holds it.
type Cache struct {
	// Max bounds the entries of each kind; 0 means DefaultCacheEntries.
	// When a scan leaves more, those it did not use are dropped, and all
	// if that is not enough.
	Max int

	hashes  table[hashKey, string]
	poisons table[poisonKey, *poisonResult]
	shadows table[string, *shadowGroups]
	gen     uint64
	// memos knows each file's tools of its last scan by identity (see
	// toolMemo).
	memos map[string]*fileMemo
}

type digest [sha256.Size]byte

type hashKey struct {
	d    digest
	spec string // pin format and exclusions
}

type poisonKey struct {
	d            digest
	server, name string // the tool's key, server/name, without joining them
	rules        detect.RuleSet
}

type poisonResult struct {
	found bool
	f     engine.Finding
}

// table is one kind of entry. Each entry counts the files whose last
// scan used it (refs); used lists the entries the current scan used, once
// each (an entry's gen says whether the current scan has used it). A
// file's scope is the entries themselves, so recording a scan and
// releasing the last one follow pointers and look nothing up; an entry
// deleted from the table is marked gone, so a pointer kept elsewhere (a
// tool's memo) is known to be stale.
type table[K comparable, V any] struct {
	m      map[K]*entry[K, V]
	used   []*entry[K, V]
	spare  []*entry[K, V]            // a released scope's slice, for the next scan's used
	scopes map[string][]*entry[K, V] // file -> the entries its last scan used
}

type entry[K comparable, V any] struct {
	k    K
	v    V
	gen  uint64
	refs int
	gone bool // no longer in the table
}

func (t *table[K, V]) get(k K, gen uint64) (*entry[K, V], bool) {
	e := t.m[k]
	if e == nil {
		return nil, false
	}
	t.use(e, gen)
	return e, true
}

func (t *table[K, V]) put(k K, v V, gen uint64) *entry[K, V] {
	if t.m == nil {
		t.m = map[K]*entry[K, V]{}
		t.scopes = map[string][]*entry[K, V]{}
	}
	e := t.m[k]
	if e == nil {
		e = &entry[K, V]{k: k}
		t.m[k] = e
	}
	e.v = v
	t.use(e, gen)
	return e
}

// use records that the current scan used e, which is in the table.
func (t *table[K, V]) use(e *entry[K, V], gen uint64) {
	if e.gen != gen {
		e.gen = gen
		if t.used == nil {
			t.used, t.spare = t.spare, nil
		}
		t.used = append(t.used, e)
	}
}

// end makes the current scan's entries the file's, drops the entries no
// file's last scan uses any more, and applies the bound.
func (t *table[K, V]) end(file string, max int, gen uint64) {
	for _, e := range t.used {
		e.refs++
	}
	t.release(file)
	if len(t.used) > 0 {
		t.scopes[file] = t.used
	}
	t.used = nil
	if len(t.m) <= max {
		return
	}
	// Over the bound: keep what this scan used, as this file's alone.
	for k, e := range t.m {
		if e.gen != gen {
			delete(t.m, k)
			e.gone = true
		} else {
			e.refs = 1
		}
	}
	keep := t.scopes[file]
	clear(t.scopes)
	if len(t.m) > max {
		for _, e := range t.m {
			e.gone = true
		}
		clear(t.m)
		return
	}
	if keep != nil {
		t.scopes[file] = keep
	}
}

// release drops a file's claim on its entries.
func (t *table[K, V]) release(file string) {
	old := t.scopes[file]
	for _, e := range old {
		if e.refs--; e.refs <= 0 && !e.gone {
			delete(t.m, e.k)
			e.gone = true
		}
	}
	delete(t.scopes, file)
	if cap(old) > cap(t.spare) {
		clear(old)
		t.spare = old[:0]
	}
}

// Len returns the number of entries (every kind).
func (c *Cache) Len() int { return len(c.hashes.m) + len(c.poisons.m) + len(c.shadows.m) }

// Forget drops what the last scan of file left in the cache that no other
// file's last scan uses: for a file that is gone, or no longer watched.
func (c *Cache) Forget(file string) {
	delete(c.memos, file)
	c.hashes.release(file)
	c.poisons.release(file)
	c.shadows.release(file)
}

func (c *Cache) max() int {
	if c.Max > 0 {
		return c.Max
	}
	return DefaultCacheEntries
}

func (c *Cache) begin() { c.gen++ }

// end records what the scan of file used and applies the bound.
func (c *Cache) end(file string) {
	c.hashes.end(file, c.max(), c.gen)
	c.poisons.end(file, c.max(), c.gen)
	c.shadows.end(file, c.max(), c.gen)
}

// appendDigestForm appends v in the form its digest is taken over: each
// value's kind, then its length-prefixed text, or its count of items or
// members and each in order. It is what the parser read (an unambiguous
// encoding of every kind, flag, key and string, members in file order),
// without the escaping a JSON encoder would do.
func appendDigestForm(b []byte, v *jsonv.Value) []byte {
	b = append(b, byte(v.Kind))
	switch v.Kind {
	case jsonv.Bool:
		if v.Bool {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	case jsonv.Number, jsonv.String:
		if v.Float {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		b = binary.AppendUvarint(b, uint64(len(v.Str)))
		b = append(b, v.Str...)
	case jsonv.Array:
		b = binary.AppendUvarint(b, uint64(len(v.Items)))
		for i := range v.Items {
			b = appendDigestForm(b, &v.Items[i])
		}
	case jsonv.Object:
		b = binary.AppendUvarint(b, uint64(len(v.Members)))
		for i := range v.Members {
			m := &v.Members[i]
			b = binary.AppendUvarint(b, uint64(len(m.Key)))
			b = append(b, m.Key...)
			b = appendDigestForm(b, &m.Value)
		}
	}
	return b
}

func hashSpec(pn *pin.Pin) string {
	return strconv.Itoa(pn.Format) + "\x00" + strings.Join(pn.Exclude, "\x00")
}

// hashTools returns the pinned-form hash of every tool, through the
// cache: a tool's memo gives the entry its last scan used, the rest are
// looked up by digest, and what neither has is hashed (on every CPU).
func (c *Cache) hashTools(tools []*engine.Tool, kn *known, pn *pin.Pin) []string {
	spec := hashSpec(pn)
	out := make([]string, len(tools))
	var miss []int
	for i := range tools {
		m := kn.ms[i]
		if e := m.hash; e != nil && !e.gone && e.k.spec == spec {
			c.hashes.use(e, c.gen)
			out[i] = e.v
			continue
		}
		if e, ok := c.hashes.get(hashKey{m.d, spec}, c.gen); ok {
			m.hash = e
			out[i] = e.v
			continue
		}
		miss = append(miss, i)
	}
	missed := make([]*engine.Tool, len(miss))
	for j, i := range miss {
		missed[j] = tools[i]
	}
	for j, h := range hashTools(missed, pn) {
		i := miss[j]
		out[i] = h
		kn.ms[i].hash = c.hashes.put(hashKey{kn.ms[i].d, spec}, h, c.gen)
	}
	return out
}

// poisonTools is the package's poisons through the cache: the findings
// of the tools it has not seen are computed (on every CPU, as without a
// cache) and the rest are taken from it (from the entry a tool's memo
// gives, or by digest), with the tool's current position.
func (c *Cache) poisonTools(inv *engine.Inventory, tools []*engine.Tool, kn *known, rs detect.RuleSet, accept detect.ToolHash) []engine.Finding {
	res := make([]*poisonResult, len(tools))
	var miss []int
	for i, t := range tools {
		m := kn.ms[i]
		if e := m.poison; e != nil && !e.gone && e.k.rules == rs && e.k.server == t.Server && e.k.name == t.Name {
			c.poisons.use(e, c.gen)
			res[i] = e.v
			continue
		}
		if e, ok := c.poisons.get(poisonKey{m.d, t.Server, t.Name, rs}, c.gen); ok {
			m.poison = e
			res[i] = e.v
			continue
		}
		miss = append(miss, i)
	}
	if len(miss) > 0 {
		// One server per missed tool, holding that tool alone, so each
		// finding is that tool's.
		sub := &engine.Inventory{File: inv.File}
		for _, i := range miss {
			s := &engine.Server{Name: tools[i].Server, Tools: []*engine.Tool{tools[i]}}
			sub.Servers = append(sub.Servers, s)
		}
		found := startPoisons(sub, rs, accept)()
		fi := 0
		for _, i := range miss {
			r := &poisonResult{}
			if fi < len(found) && found[fi].Subject == tools[i].Key() && found[fi].Path == tools[i].Path {
				r = &poisonResult{found: true, f: detach(found[fi])}
				fi++
			}
			res[i] = r
			// The key's names are the parsed file's: copies are kept.
			k := poisonKey{kn.ms[i].d, strings.Clone(tools[i].Server), strings.Clone(tools[i].Name), rs}
			kn.ms[i].poison = c.poisons.put(k, r, c.gen)
		}
	}
	var out []engine.Finding
	for i, r := range res {
		if !r.found {
			continue
		}
		f := r.f
		f.Path, f.Line = tools[i].Path, tools[i].Line
		f.Signals = slices.Clone(f.Signals)
		out = append(out, f)
	}
	return out
}

// detach returns a deep copy of f whose strings share no memory with the
// parsed file they were sliced from (its one string copy of the input),
// so a cached finding does not keep an old version of the file alive.
func detach(f engine.Finding) engine.Finding {
	v := reflect.ValueOf(&f).Elem()
	detachValue(v)
	return f
}

func detachValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(strings.Clone(v.String()))
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			detachValue(v.Field(i))
		}
	case reflect.Slice:
		if v.IsNil() {
			return
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(c, v)
		for i := 0; i < c.Len(); i++ {
			detachValue(c.Index(i))
		}
		v.Set(c)
	}
	// A Finding holds no map, pointer or interface; a new field that does
	// must be detached here (TestDetachCopiesEveryString fails until it is).
}
