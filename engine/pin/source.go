package pin

import (
	"slices"

	"github.com/descriptorpin/descriptorpin/engine"
)

// MaxBytes is the largest pin Load reads and the largest the CLI's pin
// writes. A pin is bigger than the inventory it was made from (each entry
// holds its canonical descriptor, hash, digest, key and approval, two-space
// indented): a 50,000-tool pin of the benchmark's tools is about 70 MB,
// so pins have a cap of their own, four times the inventory cap
// (engine.MaxFileBytes).
const MaxBytes = 256 << 20

// Sources lists, sorted, every source the pin's server entries record:
// the files (and client caches) the pin was made from. A pin that records
// none was written before sources existed, in format 1, or from standard
// input.
func (p *Pin) Sources() []string {
	var out []string
	for _, s := range p.Servers {
		for _, src := range s.Sources {
			if !slices.Contains(out, src) {
				out = append(out, src)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Claim is what a caller knows about one file it compares with a pin:
// enough to say which of the pin's entries the file owns (Owned).
type Claim struct {
	// Sources are the names the file may be recorded under in a pin (see
	// service.SourceNames: home-relative, pin-relative, absolute); an
	// entry recording any of them belongs to the file. Empty for standard
	// input.
	Sources []string
	// Declared are the server names the file declares now.
	Declared []string
	// Before are the server names it declared at its last good scan (the
	// service keeps them), so a server deleted from the file is REMOVED
	// even from a pin that records no sources.
	Before []string
	// Whole compares a pin that records no sources (format 1, and format
	// 2 pins written before sources existed) whole, as the CLI always has.
	// The service leaves it off: its legacy pins are shared by every
	// watched file, so each file owns only what it declares (and declared).
	Whole bool
	// LaunchOnly is set for a client config, which lists launch lines and
	// no tools: its view holds no tool entries (ServersOnly).
	LaunchOnly bool
	// ToolsOnly is set for a client's tool source (a cache or a log),
	// which holds what a server sent and not how it was launched: its
	// view holds no launch entries (ToolsOnly).
	ToolsOnly bool
}

// Owned returns the view of the pin a file is compared with: the one
// definition of "which entries does this file own", for scan, diff and
// approve in the CLI and for every scan of the service. A file owns the
// servers (with their tools) whose entries record one of its sources, the
// servers it declares now, and the servers it declared before; servers of
// other files are not in its view, so they are neither REMOVED from its
// scan nor changed by approving it. Two files that declare the same server
// name share that entry (see docs/pins.md); the client qualification of
// names (client:name, name@<project>) keeps that to servers the client
// itself shares. Acceptances are kept whole. A pin without sources is
// owned whole when the claim says Whole.
func (p *Pin) Owned(c Claim) *Pin {
	view := p
	if !c.Whole || len(p.Sources()) > 0 {
		names := map[string]bool{}
		for _, n := range c.Declared {
			names[n] = true
		}
		for _, n := range c.Before {
			names[n] = true
		}
		for _, s := range p.Servers {
			for _, src := range s.Sources {
				if slices.Contains(c.Sources, src) {
					names[s.Name] = true
				}
			}
		}
		view = p.Subset(names)
	}
	if c.LaunchOnly {
		view = view.ServersOnly()
	}
	if c.ToolsOnly {
		view = view.ToolsOnly()
	}
	return view
}

// Apply writes the changes made to a view (from Owned) back into p: every
// tool and server of the view replaces p's entry of the same identity or
// is added, every entry the view started with (before) and no longer holds
// is removed from p, and the view's acceptances become p's. Entries
// outside the view are kept byte for byte. approve uses it so that
// re-approving one file changes only that file's entries.
func (p *Pin) Apply(before, view *Pin) {
	tools := map[string]*Tool{}
	for _, t := range view.Tools {
		tools[t.Identity()] = t
	}
	servers := map[string]*Server{}
	for _, s := range view.Servers {
		servers[s.Identity()] = s
	}
	gone := map[string]bool{}
	for _, t := range before.Tools {
		if tools[t.Identity()] == nil {
			gone[t.Identity()] = true
		}
	}
	for _, s := range before.Servers {
		if servers[s.Identity()] == nil {
			gone[s.Identity()] = true
		}
	}
	var outT []*Tool
	for _, t := range p.Tools {
		if nt := tools[t.Identity()]; nt != nil {
			outT = append(outT, nt)
			delete(tools, t.Identity())
		} else if !gone[t.Identity()] {
			outT = append(outT, t)
		}
	}
	for _, t := range view.Tools {
		if tools[t.Identity()] != nil {
			outT = append(outT, t)
		}
	}
	var outS []*Server
	for _, s := range p.Servers {
		if ns := servers[s.Identity()]; ns != nil {
			outS = append(outS, ns)
			delete(servers, s.Identity())
		} else if !gone[s.Identity()] {
			outS = append(outS, s)
		}
	}
	for _, s := range view.Servers {
		if servers[s.Identity()] != nil {
			outS = append(outS, s)
		}
	}
	p.Tools, p.Servers, p.Acceptances = outT, outS, view.Acceptances
	p.sort()
}

// addSource returns srcs with src in it, sorted; src "" adds nothing.
func addSource(srcs []string, src ...string) []string {
	out := slices.Clone(srcs)
	for _, s := range src {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// FirstSight trusts on first use the first tool list a capture shows of
// each server whose launch config the pin holds: it returns a copy of p
// (p itself is not changed: it may be read elsewhere) in which every server
// of inv that has a server entry, no pinned tool and does not yet record
// source gets its tools pinned with approval ap and source added, and the
// names of those servers, sorted. A server the pin has no entry for (an
// unapproved launch config), one whose tools are pinned already, or one
// already seen from source is left alone: its differences are findings.
func FirstSight(p *Pin, inv *engine.Inventory, source string, ap Approval) (*Pin, []string) {
	hasTools := map[string]bool{}
	for _, t := range p.Tools {
		hasTools[t.Server] = true
	}
	q := *p
	q.Tools = slices.Clone(p.Tools)
	q.Servers = slices.Clone(p.Servers)
	var names []string
	for _, s := range inv.Servers {
		ps := p.Server(s.Name)
		if ps == nil || hasTools[s.Name] || len(s.Tools) == 0 || slices.Contains(ps.Sources, source) {
			continue
		}
		for _, t := range s.Tools {
			pt, err := ToolFrom(t, p.Format, p.Exclude, ap)
			if err != nil {
				continue
			}
			q.Tools = append(q.Tools, pt)
		}
		c := *ps
		c.Sources = addSource(ps.Sources, source)
		q.Servers[slices.Index(q.Servers, ps)] = &c
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return p, nil
	}
	q.sort()
	slices.Sort(names)
	return &q, names
}

// ApproveOwned is approve --all for one file: it approves every
// difference between inv and the entries the file owns (Owned(c)) and
// writes them back (Apply), so the other files' entries are untouched. It
// returns one line per change.
func ApproveOwned(p *Pin, inv *engine.Inventory, c Claim, ap Approval, opt Options) ([]string, error) {
	view := p.Owned(c)
	start := *view
	done, err := ApproveWith(view, inv, nil, true, c.LaunchOnly, ap, opt)
	if err != nil {
		return nil, err
	}
	p.Apply(&start, view)
	return done, nil
}
