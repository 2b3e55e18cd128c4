package service

import (
	"context"
	"fmt"
	"sync"

	"github.com/descriptorpin/descriptorpin/capture"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// captureWorkers is how many servers are captured at once.
const captureWorkers = 4

// Captured is one server's capture: the tool list as the default client
// identity sees it and, for each probe identity, its list and how it differs.
type Captured struct {
	Server *engine.Server
	Main   *capture.Result
	Probes []*capture.Result
	Diffs  []*capture.Difference
	Err    error // a probe that failed
}

// CaptureAll captures each server (and its probes) with a few at a time.
func CaptureAll(ctx context.Context, servers []*engine.Server, ids []string, opt capture.Options) []*Captured {
	out := make([]*Captured, len(servers))
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < captureWorkers && w < len(servers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i] = captureOne(ctx, servers[i], ids, opt)
			}
		}()
	}
	for i := range servers {
		work <- i
	}
	close(work)
	wg.Wait()
	return out
}

func captureOne(ctx context.Context, s *engine.Server, ids []string, opt capture.Options) *Captured {
	c := &Captured{Server: s, Main: capture.Capture(ctx, s, capture.DefaultIdentity, opt)}
	if c.Main.Err != nil {
		return c
	}
	for _, id := range ids {
		p := capture.Capture(ctx, s, id, opt)
		c.Probes = append(c.Probes, p)
		if p.Err != nil {
			c.Diffs = append(c.Diffs, nil)
			if c.Err == nil {
				c.Err = fmt.Errorf("the probe as %q failed: %w", sanitize.Text(id), p.Err)
			}
			continue
		}
		d, err := capture.Compare(c.Main, p)
		if err != nil && c.Err == nil {
			c.Err = fmt.Errorf("the probe as %q: %w", sanitize.Text(id), err)
		}
		c.Diffs = append(c.Diffs, d)
	}
	return c
}
