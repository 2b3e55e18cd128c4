package scan

import (
	"crypto/sha256"
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
// hash of its pinned form and its POISON finding. Entries are keyed by the
// tool's digest (the SHA-256 of its descriptor exactly as parsed: every
// field, strings unstripped, members in file order) with the pin format
// and exclusions, or the tool's key and the rule set, so a scan through a
// cache reports exactly what one without it does, and a rescan of a file
// where one tool changed costs that tool's detection (plus the parse and
// the digests).
//
// The zero Cache is ready, bounded by DefaultCacheEntries. A Cache is for
// one goroutine at a time (the service's scan loop); Scan reads it from
// several of its own goroutines only while it holds it.
type Cache struct {
	// Max bounds the entries of each kind; 0 means DefaultCacheEntries.
	// When a scan leaves more, those it did not use are dropped, and all
	// if that is not enough.
	Max int

	hashes  map[hashKey]cached[string]
	poisons map[poisonKey]cached[poisonResult]
	gen     uint64
}

type digest [sha256.Size]byte

type hashKey struct {
	d    digest
	spec string // pin format and exclusions
}

type poisonKey struct {
	d     digest
	key   string
	rules detect.RuleSet
}

type poisonResult struct {
	found bool
	f     engine.Finding
}

type cached[T any] struct {
	v   T
	gen uint64 // the scan that last used it
}

// Len returns the number of entries (both kinds).
func (c *Cache) Len() int { return len(c.hashes) + len(c.poisons) }

func (c *Cache) max() int {
	if c.Max > 0 {
		return c.Max
	}
	return DefaultCacheEntries
}

func (c *Cache) begin() {
	if c.hashes == nil {
		c.hashes = map[hashKey]cached[string]{}
		c.poisons = map[poisonKey]cached[poisonResult]{}
	}
	c.gen++
}

// end applies the bound after a scan.
func (c *Cache) end() {
	trim(c.hashes, c.max(), c.gen)
	trim(c.poisons, c.max(), c.gen)
}

func trim[K comparable, T any](m map[K]cached[T], max int, gen uint64) {
	if len(m) <= max {
		return
	}
	for k, e := range m {
		if e.gen != gen {
			delete(m, k)
		}
	}
	if len(m) > max {
		clear(m)
	}
}

// toolDigests returns the digest of every tool, in order.
func toolDigests(tools []*engine.Tool) []digest {
	out := make([]digest, len(tools))
	parallel(len(tools), 256, func(lo, hi int) {
		var buf []byte
		for i := lo; i < hi; i++ {
			buf = jsonv.Append(buf[:0], tools[i].Raw)
			out[i] = sha256.Sum256(buf)
		}
	})
	return out
}

func hashSpec(pn *pin.Pin) string {
	return strconv.Itoa(pn.Format) + "\x00" + strings.Join(pn.Exclude, "\x00")
}

// hashes returns the pinned-form hash of every tool, through the cache.
func (c *Cache) hashTools(tools []*engine.Tool, ds []digest, pn *pin.Pin) []string {
	spec := hashSpec(pn)
	out := make([]string, len(tools))
	var miss []int
	for i := range tools {
		k := hashKey{ds[i], spec}
		if e, ok := c.hashes[k]; ok {
			out[i] = e.v
			c.hashes[k] = cached[string]{e.v, c.gen}
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
		c.hashes[hashKey{ds[i], spec}] = cached[string]{h, c.gen}
	}
	return out
}

// poisons is the package's poisons through the cache: the findings of the
// tools it has not seen are computed (on every CPU, as without a cache)
// and the rest are taken from it, with the tool's current position.
func (c *Cache) poisonTools(inv *engine.Inventory, tools []*engine.Tool, ds []digest, rs detect.RuleSet) []engine.Finding {
	res := make([]poisonResult, len(tools))
	var miss []int
	for i, t := range tools {
		k := poisonKey{ds[i], t.Key(), rs}
		if e, ok := c.poisons[k]; ok {
			res[i] = e.v
			c.poisons[k] = cached[poisonResult]{e.v, c.gen}
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
		found := poisons(sub, rs)
		fi := 0
		for _, i := range miss {
			r := poisonResult{}
			if fi < len(found) && found[fi].Subject == tools[i].Key() && found[fi].Path == tools[i].Path {
				r = poisonResult{found: true, f: found[fi]}
				fi++
			}
			res[i] = r
			c.poisons[poisonKey{ds[i], tools[i].Key(), rs}] = cached[poisonResult]{r, c.gen}
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
