package inventory

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// parallelTools is the fewest tools in an inventory worth reading its
// servers on more than one CPU (a variable for the tests).
var parallelTools = 2000

// servers reads every server entry (invParser.server), each with its
// error. Servers are read independently of one another, so a large
// inventory's are read on every CPU the process may use, in runs taken
// in turn; the caller goes through them in order, so the first error
// in the file is the one reported, as when they are read one by one.
func (p *invParser) servers(vs []jsonv.Value) ([]*engine.Server, []error) {
	out := make([]*engine.Server, len(vs))
	errs := make([]error, len(vs))
	read := func(i int) { out[i], errs[i] = p.server(&vs[i], fmt.Sprintf("$.servers[%d]", i)) }
	w := runtime.GOMAXPROCS(0)
	if w < 2 || len(vs) < 2 || countTools(vs) < parallelTools {
		for i := range vs {
			if read(i); errs[i] != nil {
				break // what follows is not read, nor needed
			}
		}
		return out, errs
	}
	run := max(1, len(vs)/(8*w))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(w, len(vs)) {
		wg.Go(func() {
			for {
				lo := int(next.Add(int64(run))) - run
				if lo >= len(vs) {
					return
				}
				for i := lo; i < min(lo+run, len(vs)); i++ {
					read(i)
				}
			}
		})
	}
	wg.Wait()
	return out, errs
}

// countTools counts the entries of the servers' tool lists, as far as
// they are lists.
func countTools(vs []jsonv.Value) int {
	n := 0
	for i := range vs {
		if tv, ok := vs[i].Get("tools"); ok {
			n += len(tv.Items)
		}
	}
	return n
}
