package capture

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Workers is how many servers CaptureAll captures at once.
const Workers = 4

// ArgError is a mistake in what the caller asked for (a server name, a
// probe identity): Msg for a person, and a Hint when one helps.
type ArgError struct {
	Msg  string
	Hint string
}

func (e *ArgError) Error() string { return e.Msg }

// Captured is one server's capture as DefaultIdentity, and the probes of
// it as each other identity with their differences from it.
type Captured struct {
	Server *engine.Server
	Main   *Result
	Probes []*Result
	Diffs  []*Difference // one per probe; nil where the probe failed
	Err    error         // the first probe that failed
}

// ProbeIdentities checks and de-duplicates the --identify-as names.
func ProbeIdentities(list []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, id := range list {
		id = strings.TrimSpace(id)
		switch {
		case id == "":
			return nil, &ArgError{Msg: "--identify-as needs a client name"}
		case id == DefaultIdentity:
			return nil, &ArgError{Msg: fmt.Sprintf("--identify-as %q is the name every capture already uses", id)}
		case seen[id]:
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	return out, nil
}

// Select picks the servers named (by inventory name or by the config's own
// name), or every enabled server; skipped are the disabled ones left out.
func Select(inv *engine.Inventory, names []string) (selected, skipped []*engine.Server, err error) {
	if len(names) == 0 {
		for _, s := range inv.Servers {
			if s.Disabled {
				skipped = append(skipped, s)
			} else {
				selected = append(selected, s)
			}
		}
		return selected, skipped, nil
	}
	picked := map[*engine.Server]bool{}
	for _, n := range names {
		var match []*engine.Server
		for _, s := range inv.Servers {
			if s.Name == n {
				match = []*engine.Server{s}
				break
			}
			if s.Client != "" && strings.TrimPrefix(s.Name, s.Client+":") == n {
				match = append(match, s)
			}
		}
		switch len(match) {
		case 0:
			known := make([]string, 0, len(inv.Servers))
			for _, s := range inv.Servers {
				known = append(known, sanitize.Text(s.Name))
			}
			hint := "the config declares no servers"
			if len(known) > 0 {
				hint = "the config's servers are: " + strings.Join(known, ", ")
			}
			return nil, nil, &ArgError{Msg: fmt.Sprintf("no server %q in %s", sanitize.Text(n), sanitize.Text(inv.File)), Hint: hint}
		case 1:
		default:
			return nil, nil, &ArgError{Msg: fmt.Sprintf("--server %q names %d servers; use the full name", sanitize.Text(n), len(match))}
		}
		if !picked[match[0]] {
			picked[match[0]] = true
			selected = append(selected, match[0])
		}
	}
	return selected, nil, nil
}

// CaptureAll captures each server (and its probes as ids) with Workers
// at a time; the results are in the servers' order.
func CaptureAll(ctx context.Context, servers []*engine.Server, ids []string, opt Options) []*Captured {
	out := make([]*Captured, len(servers))
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < Workers && w < len(servers); w++ {
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

func captureOne(ctx context.Context, s *engine.Server, ids []string, opt Options) *Captured {
	c := &Captured{Server: s, Main: Capture(ctx, s, DefaultIdentity, opt)}
	if c.Main.Err != nil {
		return c
	}
	for _, id := range ids {
		p := Capture(ctx, s, id, opt)
		c.Probes = append(c.Probes, p)
		if p.Err != nil {
			c.Diffs = append(c.Diffs, nil)
			if c.Err == nil {
				c.Err = fmt.Errorf("the probe as %q failed: %w", sanitize.Text(id), p.Err)
			}
			continue
		}
		d, err := Compare(c.Main, p)
		if err != nil && c.Err == nil {
			c.Err = fmt.Errorf("the probe as %q: %w", sanitize.Text(id), err)
		}
		c.Diffs = append(c.Diffs, d)
	}
	return c
}
