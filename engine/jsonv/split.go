package jsonv

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// splitMin is the smallest document ParseSplit reads on more than one
// CPU: below it, starting the workers costs more than they save.
const splitMin = 1 << 20

// ParseSplit is Parse for a document whose root object has a member key
// that holds a long array (an inventory's servers): the items of that
// array are parsed on every CPU the process may use. It returns what
// Parse returns: the same tree and, for a document Parse refuses, the
// same error, since such a document is read again by Parse.
func ParseSplit(data []byte, key string) (Value, error) {
	return ParseSplitString(string(data), key)
}

// ParseSplitString is ParseSplit over a document held as a string: the
// tree's strings and number literals are slices of src itself (as
// ParseString's are), where ParseSplit slices its one copy of data.
func ParseSplitString(src, key string) (Value, error) {
	w := runtime.GOMAXPROCS(0)
	if len(src) < splitMin || w < 2 {
		return ParseString(src)
	}
	if v, ok := parseSplit(src, key, w); ok {
		return v, nil
	}
	return ParseString(src)
}

// parseSplit reads the document as ParseLazy does, leaving the member
// key as raw items, then each item with the strict parser, as Parse
// reads an item of that array, on w workers. ok is false wherever Parse
// would fail (and where the member is not an array of items).
func parseSplit(src, key string, w int) (Value, bool) {
	p := parser{src: src, lazy: key, hasLazy: true}
	root, err := p.document()
	if err != nil || root.Kind != Object {
		return Value{}, false
	}
	var mv *Value
	for i := range root.Members {
		if root.Members[i].Key == key {
			mv = &root.Members[i].Value
		}
	}
	if mv == nil || mv.Kind != Raw || mv.Items == nil {
		return Value{}, false
	}
	raw := mv.Items
	items := make([]Value, len(raw))
	// Items are taken in runs, in turn, so that workers finish together
	// when items differ in size.
	run := max(1, len(raw)/(8*w))
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(w, len(raw)) {
		wg.Go(func() {
			// Each item is read where Parse reads it: the root object at
			// depth 1, the array at 2, and the path it would be at.
			wp := parser{src: p.src, path: []pathElem{{}, {key: key, isKey: true}, {}}}
			for !failed.Load() {
				lo := int(next.Add(int64(run))) - run
				if lo >= len(raw) {
					return
				}
				for i := lo; i < min(lo+run, len(raw)); i++ {
					wp.pos, wp.path[2].index = raw[i].Off, i
					v, err := wp.value(2)
					if err != nil || wp.pos != raw[i].Off+len(raw[i].Str) {
						failed.Store(true)
						return
					}
					items[i] = v
				}
			}
		})
	}
	wg.Wait()
	if failed.Load() {
		return Value{}, false
	}
	*mv = Value{Kind: Array, Items: items, Off: mv.Off}
	return root, true
}
