package inventory

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// Reuser parses successive versions of one inventory file, reusing the
// servers of the last good parse that a new version did not touch: a
// changed file costs the servers that changed plus a comparison of the
// bytes, not a parse of the whole file. The service keeps one per
// watched inventory, so a one-tool change in a 1,000-tool file parses
// one server.
//
// What it returns is exactly what [Parse] returns for the same bytes
// (FuzzReuse holds it to that): the servers it reuses are the objects of
// the previous result, their offsets, lines and JSON paths moved to
// where the new version has them. So a result is only valid until the
// next call on the same Reuser, which may modify the servers it shares
// with it; nothing of a result may be kept beyond that (the scan keeps
// copies of what it caches, findings hold no parsed values).
//
// How: the new version is compared with the last good one from both
// ends. The servers wholly inside the common prefix are kept as they
// are, those wholly inside the common suffix are kept and moved, and the
// text between (the servers the change touches, in the new version) is
// parsed on its own, as the items of a {"servers": [...]} document, so
// that nesting depth, duplicate keys and every other check read it as
// they read the whole file. Anything else (a change outside the servers
// list, a list that is not the root's, an error of any kind) is left to
// the caller's full parse: Update says so and keeps nothing new.
//
// A Reuser is for one goroutine at a time; the zero value is ready.
type Reuser struct {
	// MaxContainers, when positive, is the most objects and arrays
	// (jsonv.CountContainers) a version Update accepts; past it Update
	// declines, before parsing, so that the caller's own cap check
	// reports it.
	MaxContainers int

	data    []byte // the last good version
	total   int    // its objects and arrays
	servers []*engine.Server
	spans   []span // where each server's object is in data
}

// span is one server object's extent in the last good version and the
// objects and arrays it holds (itself included).
type span struct {
	start, end, containers int
}

// Reset forgets the last good parse (for a file that is gone or is no
// longer an inventory), releasing what it holds.
func (r *Reuser) Reset() {
	max := r.MaxContainers
	*r = Reuser{MaxContainers: max}
}

// Parse is [Parse], remembering the result for Update when it succeeds.
func (r *Reuser) Parse(file string, data []byte) (*engine.Inventory, error) {
	inv, root, err := parseTree(file, data)
	if err != nil {
		return nil, err
	}
	r.keep(data, root, inv)
	return inv, nil
}

// parseTree is Parse, also returning the document's tree. Any error is
// Parse's own (the error path parses again, so the messages have one
// home).
func parseTree(file string, data []byte) (*engine.Inventory, *jsonv.Value, error) {
	if len(data) <= engine.MaxFileBytes {
		if root, err := jsonv.Parse(data); err == nil {
			p := invParser{file: file, lines: jsonv.NewLines(data)}
			if inv, err := p.inventory(&root); err == nil {
				return inv, &root, nil
			}
		}
	}
	_, err := Parse(file, data)
	if err == nil {
		err = fmt.Errorf("%s: internal error: the inventory parses in full but not in parts", file)
	}
	return nil, nil, err
}

// keep records a good parse of data (root its tree, inv its inventory).
func (r *Reuser) keep(data []byte, root *jsonv.Value, inv *engine.Inventory) {
	sv, _ := root.Get("servers")
	spans := make([]span, len(sv.Items))
	for i := range sv.Items {
		spans[i].start = sv.Items[i].Off
		spans[i].containers = containers(&sv.Items[i])
	}
	// The end of each server object: back from where the next one starts
	// (over blanks and a comma), and for the last back from the root's
	// next member (a comma, the list's ']') or the document's end (the
	// root's '}', the list's ']').
	for i := range spans {
		if i+1 < len(spans) {
			spans[i].end = endBefore(data, spans[i+1].start, ',')
			continue
		}
		at, closers := len(data), []byte{'}', ']'}
		for j, m := range root.Members {
			if m.Key == "servers" && j+1 < len(root.Members) {
				at, closers = root.Members[j+1].KeyOff, []byte{',', ']'}
			}
		}
		spans[i].end = endBefore(data, at, closers...)
	}
	for _, s := range spans {
		if s.end < s.start {
			r.Reset() // not the shape a good parse has: parse in full
			return
		}
	}
	*r = Reuser{MaxContainers: r.MaxContainers, data: data, total: containers(root), servers: inv.Servers, spans: spans}
}

// endBefore steps back from at over blanks and each of closers in turn
// (blanks around them) and returns the offset just past the last byte
// before them: where the value that precedes them ends. It returns -1
// when one of closers is not there.
func endBefore(data []byte, at int, closers ...byte) int {
	for _, c := range closers {
		at = skipBlanksBack(data, at)
		if at == 0 || data[at-1] != c {
			return -1
		}
		at--
	}
	return skipBlanksBack(data, at)
}

func skipBlanksBack(data []byte, at int) int {
	for at > 0 && isBlank(data[at-1]) {
		at--
	}
	return at
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// containers counts v and the objects and arrays inside it.
func containers(v *jsonv.Value) int {
	n := 0
	switch v.Kind {
	case jsonv.Object:
		n++
		for i := range v.Members {
			n += containers(&v.Members[i].Value)
		}
	case jsonv.Array:
		n++
		for i := range v.Items {
			n += containers(&v.Items[i])
		}
	}
	return n
}

// wrapOpen and wrapClose make the changed servers a document of their
// own, in which they sit as deep as in the file.
const (
	wrapOpen  = `{"servers":[`
	wrapClose = `]}`
)

// Update returns what Parse(file, data) returns, reusing the last good
// parse, and ok; or, when it cannot (no good parse yet, a change it does
// not read in parts, an error, more containers than MaxContainers), nil
// and false, having changed nothing: the caller then parses in full
// (Parse, which also reports any error).
func (r *Reuser) Update(file string, data []byte) (*engine.Inventory, bool) {
	old := r.data
	if r.spans == nil || len(data) > engine.MaxFileBytes {
		return nil, false
	}
	pre, suf := commonEnds(old, data)
	if pre == len(old) && len(old) == len(data) {
		r.data = data // the same bytes: the same servers, where they were
		return &engine.Inventory{File: file, Servers: r.servers}, true
	}
	// The changed text, in the old version, is old[pre:len(old)-suf]. The
	// servers it touches are lo..hi: the last that starts at or before
	// it, to the first that ends at or after it.
	lo, hi := -1, -1
	for i, s := range r.spans {
		if s.start <= pre {
			lo = i
		}
		if hi < 0 && s.end >= len(old)-suf {
			hi = i
		}
	}
	if lo < 0 || hi < 0 || lo > hi {
		return nil, false // the change is outside the servers list
	}
	delta := len(data) - len(old)
	from, to := r.spans[lo].start, r.spans[hi].end+delta
	if to < from {
		return nil, false
	}
	mid := data[from:to]
	total := r.total
	for _, s := range r.spans[lo : hi+1] {
		total -= s.containers
	}
	n, _ := jsonv.CountContainers(mid, 0)
	if total += n; r.MaxContainers > 0 && total > r.MaxContainers {
		return nil, false
	}
	doc := make([]byte, 0, len(wrapOpen)+len(mid)+len(wrapClose))
	doc = append(append(append(doc, wrapOpen...), mid...), wrapClose...)
	root, err := jsonv.Parse(doc)
	if err != nil || root.Kind != jsonv.Object || len(root.Members) != 1 {
		return nil, false
	}
	list := &root.Members[0].Value
	if list.Kind != jsonv.Array || len(list.Items) == 0 {
		return nil, false
	}
	// The new servers' ends, in doc, before their offsets move.
	ends := make([]int, len(list.Items))
	for i := range list.Items {
		if i+1 < len(list.Items) {
			ends[i] = endBefore(doc, list.Items[i+1].Off, ',')
		} else {
			ends[i] = endBefore(doc, len(doc)-len(wrapClose))
		}
		if ends[i] < list.Items[i].Off {
			return nil, false
		}
	}
	shift := from - len(wrapOpen)
	p := invParser{file: file, lines: jsonv.NewLines(data)}
	servers := make([]*engine.Server, 0, len(r.servers)-(hi-lo+1)+len(list.Items))
	servers = append(servers, r.servers[:lo]...)
	spans := make([]span, 0, cap(servers))
	spans = append(spans, r.spans[:lo]...)
	for i := range list.Items {
		v := &list.Items[i]
		move(v, shift)
		s, err := p.server(v, serverPath(lo+i))
		if err != nil {
			return nil, false
		}
		servers = append(servers, s)
		spans = append(spans, span{start: v.Off, end: ends[i] + shift, containers: containers(v)})
	}
	// Checked now, changed below: nothing may change before the new
	// version is known to be good.
	after := r.servers[hi+1:]
	if !distinct(servers, after) {
		return nil, false
	}
	lineShift := 0
	if len(after) > 0 {
		line, _ := p.lines.Position(r.spans[hi+1].start + delta)
		lineShift = line - after[0].Line
	}
	for j, s := range after {
		i := len(servers)
		moveServer(s, i, hi+1+j, delta, lineShift)
		servers = append(servers, s)
		o := r.spans[hi+1+j]
		spans = append(spans, span{start: o.start + delta, end: o.end + delta, containers: o.containers})
	}
	*r = Reuser{MaxContainers: r.MaxContainers, data: data, total: total, servers: servers, spans: spans}
	return &engine.Inventory{File: file, Servers: servers}, true
}

// commonEnds returns the lengths of the longest common prefix and suffix
// of a and b, which together cover no more than the shorter of the two.
// Whole blocks are compared as memory first, then bytes.
func commonEnds(a, b []byte) (pre, suf int) {
	const block = 512
	n := min(len(a), len(b))
	for pre+block <= n && bytes.Equal(a[pre:pre+block], b[pre:pre+block]) {
		pre += block
	}
	for pre < n && a[pre] == b[pre] {
		pre++
	}
	limit := n - pre
	ea, eb := len(a), len(b)
	for suf+block <= limit && bytes.Equal(a[ea-suf-block:ea-suf], b[eb-suf-block:eb-suf]) {
		suf += block
	}
	for suf < limit && a[ea-1-suf] == b[eb-1-suf] {
		suf++
	}
	return pre, suf
}

func serverPath(i int) string { return fmt.Sprintf("$.servers[%d]", i) }

// distinct reports whether the server names and the tool keys of both
// lists are all distinct, the checks Parse makes across servers. (Within
// a server the parser has made its tool names distinct, so keys can
// only meet when a name holds a '/'.)
func distinct(a, b []*engine.Server) bool {
	names := make(map[string]bool, len(a)+len(b))
	slash := false
	for _, l := range [][]*engine.Server{a, b} {
		for _, s := range l {
			if names[s.Name] {
				return false
			}
			names[s.Name] = true
			slash = slash || strings.IndexByte(s.Name, '/') >= 0
			for _, t := range s.Tools {
				slash = slash || strings.IndexByte(t.Name, '/') >= 0
			}
		}
	}
	if !slash {
		return true
	}
	keys := map[string]bool{}
	for _, l := range [][]*engine.Server{a, b} {
		for _, s := range l {
			for _, t := range s.Tools {
				if keys[t.Key()] {
					return false
				}
				keys[t.Key()] = true
			}
		}
	}
	return true
}

// moveServer moves a reused server from index was to index now, its text
// by delta bytes and by lines lines.
func moveServer(s *engine.Server, now, was, delta, lines int) {
	s.Line += lines
	var oldPath, newPath string
	if now != was {
		oldPath, newPath = s.Path, serverPath(now)
		s.Path = newPath
	}
	for _, t := range s.Tools {
		t.Line += lines
		if now != was && strings.HasPrefix(t.Path, oldPath) {
			t.Path = newPath + t.Path[len(oldPath):]
		}
		if delta != 0 {
			move(t.Raw, delta)
		}
	}
}

// move adds delta to every offset in v.
func move(v *jsonv.Value, delta int) {
	v.Off += delta
	for i := range v.Members {
		v.Members[i].KeyOff += delta
		move(&v.Members[i].Value, delta)
	}
	for i := range v.Items {
		move(&v.Items[i], delta)
	}
}
