package pin

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/launch"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Approve re-pins exactly the named keys from the current inventory with
// approval ap and leaves every other entry untouched. A key is
// "server/tool" or a server name (all its tools and, in format 2, its
// launch config). A named tool absent from the inventory is removed from
// the pin. With all, every difference is approved. With launchOnly (the
// file is a client config, which lists no tools) pinned tools are left
// alone. It returns one line per change made.
func Approve(pin *Pin, inv *engine.Inventory, keys []string, all, launchOnly bool, ap Approval) ([]string, error) {
	return ApproveWith(pin, inv, keys, all, launchOnly, ap, Options{})
}

// ApproveWith is Approve with options: with a key, a re-approved server
// records the keyed digests of its hidden values, and with all a server
// whose values changed (or whose record has no digests yet) is
// re-approved. A record made with another host's key is left to that
// host unless something shown changed or it is named.
func ApproveWith(pin *Pin, inv *engine.Inventory, keys []string, all, launchOnly bool, ap Approval, opt Options) ([]string, error) {
	var done []string
	exclude := pin.Exclude
	// Entries are replaced, never edited: the slices may be shared with
	// a view (Subset, ServersOnly), so they are copied first.
	pin.Tools = slices.Clone(pin.Tools)
	pin.Servers = slices.Clone(pin.Servers)
	pin.index()
	setTool := func(t *engine.Tool) error {
		pt, err := ToolFrom(t, pin.Format, exclude, ap)
		if err != nil {
			return err
		}
		for i, old := range pin.Tools {
			if old.Key == pt.Key {
				pin.Tools[i] = pt
				pin.byKey[pt.Key] = pt
				done = append(done, "approved "+pt.Key)
				return nil
			}
		}
		pin.Tools = append(pin.Tools, pt)
		pin.byKey[pt.Key] = pt
		done = append(done, "approved "+pt.Key+" (new)")
		return nil
	}
	dropTool := func(key string) {
		out := make([]*Tool, 0, len(pin.Tools))
		for _, t := range pin.Tools {
			if t.Key != key {
				out = append(out, t)
			}
		}
		pin.Tools = out
		delete(pin.byKey, key)
		done = append(done, "removed "+key)
	}
	setServer := func(s *engine.Server) {
		if pin.Format < Format2 {
			return
		}
		ps := ServerWith(s, ap, opt.Key)
		ps.Sources = addSource(nil, opt.Source)
		for i, old := range pin.Servers {
			if old.Name == s.Name {
				ps.Sources = addSource(old.Sources, opt.Source)
				pin.Servers[i] = ps
				done = append(done, "approved server "+s.Name)
				return
			}
		}
		pin.Servers = append(pin.Servers, ps)
		done = append(done, "approved server "+s.Name+" (new)")
	}
	dropServer := func(name string) {
		out := make([]*Server, 0, len(pin.Servers))
		for _, s := range pin.Servers {
			if s.Name != name {
				out = append(out, s)
			}
		}
		if len(out) != len(pin.Servers) {
			done = append(done, "removed server "+name)
		}
		pin.Servers = out
	}
	toolIn := func(key string) *engine.Tool {
		for _, t := range inv.Tools() {
			if t.Key() == key {
				return t
			}
		}
		return nil
	}

	if all {
		for _, t := range inv.Tools() {
			if launchOnly {
				break
			}
			pt := pin.Tool(t.Key())
			if pt == nil || pt.Hash != Describe(t, pin.Format, exclude).Hash {
				if err := setTool(t); err != nil {
					return nil, err
				}
			}
		}
		for _, pt := range append([]*Tool(nil), pin.Tools...) {
			if !launchOnly && toolIn(pt.Key) == nil {
				dropTool(pt.Key)
			}
		}
		if pin.Format >= Format2 {
			for _, s := range inv.Servers {
				ps := pin.Server(s.Name)
				if ps == nil {
					setServer(s)
					continue
				}
				if ch, note := launch.Compare(*ps.Approved(), s, opt.Key); len(ch) > 0 || note == launch.NoteNoDigests {
					setServer(s)
				} else if opt.Source != "" && !slices.Contains(ps.Sources, opt.Source) {
					// Unchanged, but not yet known to come from this file
					// (a pin written before sources): record where it is.
					c := *ps
					c.Sources = addSource(ps.Sources, opt.Source)
					pin.Servers[slices.Index(pin.Servers, ps)] = &c
					done = append(done, "recorded the source of server "+s.Name)
				}
			}
			for _, ps := range append([]*Server(nil), pin.Servers...) {
				if inv.Server(ps.Name) == nil {
					dropServer(ps.Name)
				}
			}
		}
		pin.sort()
		return done, nil
	}

	for _, k := range keys {
		// A server name may hold '/' (name@/project/dir); a key is a tool
		// key only when it is not a server's name.
		isServer := inv.Server(k) != nil || pin.Server(k) != nil
		if !isServer && strings.Contains(k, "/") {
			if t := toolIn(k); t != nil {
				if err := setTool(t); err != nil {
					return nil, err
				}
				continue
			}
			if pin.Tool(k) != nil {
				dropTool(k)
				continue
			}
			return nil, fmt.Errorf("no tool %q in the inventory or the pin", sanitize.Text(k))
		}
		s := inv.Server(k)
		inPin := pin.Server(k) != nil
		for _, pt := range pin.Tools {
			inPin = inPin || pt.Server == k
		}
		if s == nil && !inPin {
			return nil, fmt.Errorf("no server %q in the inventory or the pin", sanitize.Text(k))
		}
		if s != nil {
			for _, t := range s.Tools {
				if err := setTool(t); err != nil {
					return nil, err
				}
			}
			setServer(s)
		} else {
			dropServer(k)
		}
		for _, pt := range append([]*Tool(nil), pin.Tools...) {
			if !launchOnly && pt.Server == k && toolIn(pt.Key) == nil {
				dropTool(pt.Key)
			}
		}
	}
	pin.sort()
	return done, nil
}

// Accept records an acceptance of the finding or poison signal with the
// given id among a scan's findings, tied to the hash of what it is about.
// accepted are the findings the pin already accepts (a scan report's
// Accepted), for the message when id is one of them. It replaces an older
// acceptance of the same id.
func Accept(pin *Pin, findings, accepted []engine.Finding, id string, ap Approval) (string, error) {
	id = strings.TrimSpace(id)
	find := func(fs []engine.Finding) (*Acceptance, bool) {
		for _, f := range fs {
			if f.ID == id {
				if f.AcceptHash == "" {
					return nil, true
				}
				return &Acceptance{ID: id, Class: f.Class, Subject: f.Subject, Hash: f.AcceptHash, Approval: ap}, true
			}
			for _, s := range f.Signals {
				if s.ID == id {
					return &Acceptance{ID: id, Class: f.Class, Subject: f.Subject, Signal: s.Name, Hash: f.AcceptHash, Approval: ap}, true
				}
			}
		}
		return nil, false
	}
	a, found := find(findings)
	if !found {
		if _, already := find(accepted); already {
			return "", fmt.Errorf("finding %s is already accepted", sanitize.Text(id))
		}
		return "", fmt.Errorf("no current finding has id %q", sanitize.Text(id))
	}
	if a == nil {
		return "", fmt.Errorf("finding %s cannot be accepted: re-approve the tool instead (approve KEY)", sanitize.Text(id))
	}
	out := make([]*Acceptance, 0, len(pin.Acceptances))
	for _, old := range pin.Acceptances {
		if old.Identity() != a.Identity() {
			out = append(out, old)
		}
	}
	pin.Acceptances = append(out, a)
	pin.sort()
	what := "accepted " + string(a.Class) + " " + a.Subject
	if a.Signal != "" {
		what += " signal " + a.Signal
	}
	return what, nil
}

// ApprovedAt is an approval time as a pin records it: UTC, RFC 3339 to
// the second. It is part of the pin format (the original's pins carry
// none, and format 2's must stay byte-identical for the same input), so
// it is not engine.TimeFormat.
func ApprovedAt(t time.Time) string { return t.UTC().Format(time.RFC3339) }
