package scan

import (
	"runtime"
	"sync"
)

// parallel calls fn over [0, n) split into contiguous ranges, one per CPU
// the process may use (runtime.GOMAXPROCS), and returns when all are done.
// fn must write only to its own range of any shared output: results are
// then the same as one call over [0, n), whatever the split.
// minChunk is the fewest items worth a goroutine of their own.
func parallel(n, minChunk int, fn func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), n/minChunk)
	if w <= 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		lo, hi := k*n/w, (k+1)*n/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	wg.Wait()
}
