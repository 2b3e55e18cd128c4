package pin

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"

	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/engine/redact"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Pin format identifiers.
const (
	Format1ID = "descriptorpin/pin/1"
	Format2ID = "descriptorpin/pin/2"
	// OriginalVersion is the tool_version a format-1 pin records: the
	// version of the original whose files format 1 reproduces byte for
	// byte.
	OriginalVersion = "1.0.0"
	// DefaultApprover is recorded when no --approved-by is given, as the
	// original does.
	DefaultApprover = "[UNSPECIFIED]"
)

// Pin is the approved state: a canonical descriptor and hash per tool,
// and in format 2 the approved launch config per server and acceptances.
type Pin struct {
	Format      int
	ToolVersion string   // format 1 only
	Exclude     []string // format 2: descriptor fields left out
	Tools       []*Tool
	Servers     []*Server
	Acceptances []*Acceptance

	// byKey indexes Tools. Build, Load, Subset, ServersOnly and the
	// changes (Approve, Accept, Merge) keep it; Tool never writes it, so
	// a pin may be read from several goroutines.
	byKey map[string]*Tool
}

// Approval records who approved something, why and when.
type Approval struct {
	By   string
	Note string
	At   string // RFC 3339 UTC; empty in format 1
}

// Tool is one approved tool descriptor.
type Tool struct {
	Key    string
	Server string
	Name   string
	Hash   string
	Approval

	// desc is the canonical descriptor (Descriptor). Until it is asked
	// for, a built entry (ToolFrom) keeps from, the normalised descriptor
	// object (canon.Tree makes desc of it; Marshal writes it with
	// canon.AppendIndentTree), and an entry Load read keeps src, the
	// canonical form of its stored descriptor (checked against the hash
	// as it was written). size is the length of the canonical form
	// (0: not known), for Marshal's estimate of what it writes.
	desc atomic.Pointer[jsonv.Value]
	from *jsonv.Value
	src  string
	size int
}

// Descriptor returns the tool's canonical descriptor: keys sorted,
// strings stripped, what the pin stores. A loaded pin keeps each stored
// descriptor as its canonical text (verified against the hash when
// loaded) and parses it the first time it is asked for, which a scan does only for
// a tool that differs from the pin. The value is shared: do not change
// it. Safe for concurrent use.
func (t *Tool) Descriptor() *jsonv.Value {
	if d := t.desc.Load(); d != nil {
		return d
	}
	d := t.parseDescriptor()
	if t.desc.CompareAndSwap(nil, d) {
		return d
	}
	return t.desc.Load()
}

// tree is Descriptor without keeping a tree it parses (Marshal writes
// every entry once: holding every tree would undo the lazy load).
func (t *Tool) tree() *jsonv.Value {
	if d := t.desc.Load(); d != nil {
		return d
	}
	return t.parseDescriptor()
}

func (t *Tool) parseDescriptor() *jsonv.Value {
	if t.from != nil {
		c := canon.Tree(t.from)
		return &c
	}
	if t.src == "" {
		return &jsonv.Value{} // a literal Tool without a descriptor
	}
	// The text is canonical JSON canon.SourceEncoder wrote from a value
	// it checked as strictly as jsonv does: it parses.
	v, err := jsonv.Parse([]byte(t.src))
	if err != nil {
		return &jsonv.Value{Kind: jsonv.Object, Members: []jsonv.Member{}}
	}
	c := canon.Tree(&v)
	return &c
}

// newTool is a Tool with its descriptor tree.
func newTool(key, server, name, hash string, desc jsonv.Value, ap Approval) *Tool {
	t := &Tool{Key: key, Server: server, Name: name, Hash: hash, Approval: ap}
	t.desc.Store(&desc)
	return t
}

// Server is the approved launch config of one server. Env and header
// values are never recorded, only their key names; arguments, the URL and
// the launch fields are recorded redacted. What redaction hides is
// recorded as keyed digests (Values, made with the key whose id is KeyID),
// so a change of it is a LAUNCH while no value is ever in the pin.
type Server struct {
	Name       string
	Transport  string
	Command    string
	Args       []string
	URL        string
	EnvKeys    []string
	HeaderKeys []string
	Extra      map[string]string // launch fields (launch.ExtraFields), redacted
	KeyID      string            // format 2, optional: id of the digest key
	Values     map[string]string // format 2, optional: field -> keyed digest
	// Sources (format 2, optional) are the files (home-relative, or
	// relative to the pin) or client caches the server was pinned from,
	// sorted; see Owned.
	Sources []string
	Approval
}

// Options are what building a pin is handed besides the inventory.
type Options struct {
	// Key makes the keyed digests of the launch values redaction hides
	// (launch.Values); nil records none. The CLI and the service pass the
	// per-host key.
	Key launch.Key
	// Source is recorded as the source of every server built or
	// approved (see Server.Sources); "" records none.
	Source string
}

// Acceptance records that a person accepted a static finding on purpose.
// It holds while the accepted thing still hashes to Hash.
type Acceptance struct {
	ID      string // the finding id (or poison signal id) accepted
	Class   engine.Class
	Subject string
	Signal  string // POISON: the one signal accepted
	Hash    string
	Approval
}

// Tool returns the pinned entry for a key, or nil.
func (p *Pin) Tool(key string) *Tool {
	if p.byKey == nil {
		// A pin written as a literal has no index: look, do not build.
		for _, t := range p.Tools {
			if t.Key == key {
				return t
			}
		}
		return nil
	}
	return p.byKey[key]
}

// ToolOf is Tool(server + "/" + name), without building the key: the
// scan looks up every tool of an inventory this way.
func (p *Pin) ToolOf(server, name string) *Tool {
	n := len(server) + 1 + len(name)
	if p.byKey == nil {
		for _, t := range p.Tools {
			if len(t.Key) == n && t.Key[len(server)] == '/' && t.Key[:len(server)] == server && t.Key[len(server)+1:] == name {
				return t
			}
		}
		return nil
	}
	var buf [128]byte
	k := buf[:0]
	if n > len(buf) {
		k = make([]byte, 0, n)
	}
	k = append(append(append(k, server...), '/'), name...)
	return p.byKey[string(k)]
}

// Server returns the pinned server of that name, or nil.
func (p *Pin) Server(name string) *Server {
	for _, s := range p.Servers {
		if s.Name == name {
			return s
		}
	}
	return nil
}

func (p *Pin) index() {
	p.byKey = make(map[string]*Tool, len(p.Tools))
	for _, t := range p.Tools {
		p.byKey[t.Key] = t
	}
}

// Accepted returns the acceptance matching a finding (or signal) id and the
// current hash of what it accepted, or nil.
func (p *Pin) Accepted(id, hash string) *Acceptance {
	if p == nil {
		return nil
	}
	for _, a := range p.Acceptances {
		if a.ID == id && a.Hash == hash {
			return a
		}
	}
	return nil
}

// ToolFrom builds a pin entry for a tool.
func ToolFrom(t *engine.Tool, format int, exclude []string, ap Approval) (*Tool, error) {
	pt, _ := toolFrom(nil, t, format, exclude, ap)
	return pt, nil
}

// toolFrom is ToolFrom encoding into buf (returned, to be reused). The
// entry keeps the normalised descriptor object, not its canonical tree:
// Marshal writes the object as the tree would be written, and
// Descriptor builds the tree only if it is asked for.
func toolFrom(buf []byte, t *engine.Tool, format int, exclude []string, ap Approval) (*Tool, []byte) {
	obj := descObject(t, format, exclude)
	buf = canon.Append(buf[:0], &obj)
	return &Tool{Key: t.Key(), Server: t.Server, Name: t.Name, Hash: canon.Hash(buf), Approval: ap, from: &obj, size: len(buf)}, buf
}

// Launch returns the pinned launch config as a server value, for the
// launch package's Hash, Changes and Matches. Its args and URL are the
// redacted ones the pin records.
func (s *Server) Launch() *engine.Server {
	if s == nil {
		return nil
	}
	return &engine.Server{Name: s.Name, Transport: s.Transport, Command: s.Command, Args: s.Args, URL: s.URL, EnvKeys: s.EnvKeys, HeaderKeys: s.HeaderKeys, Extra: s.Extra}
}

// Approved returns the pinned launch config with its value digests, for
// launch.Compare and launch.MatchesApproved; nil for a nil server.
func (s *Server) Approved() *launch.Approved {
	if s == nil {
		return nil
	}
	return &launch.Approved{Server: s.Launch(), KeyID: s.KeyID, Values: s.Values}
}

// ServerFrom records the launch config of a server, without value
// digests.
func ServerFrom(s *engine.Server, ap Approval) *Server { return ServerWith(s, ap, nil) }

// ServerWith records the launch config of a server and, with a key, the
// keyed digests of what redaction hides in it.
func ServerWith(s *engine.Server, ap Approval, key launch.Key) *Server {
	ps := &Server{
		Name: s.Name, Transport: s.Transport, Command: s.Command,
		Args: redact.Args(s.Args), URL: redact.URL(s.URL),
		EnvKeys: append([]string(nil), s.EnvKeys...), HeaderKeys: append([]string(nil), s.HeaderKeys...), Approval: ap,
	}
	for _, name := range launch.ExtraFields {
		if v := s.Extra[name]; v != "" {
			if ps.Extra == nil {
				ps.Extra = map[string]string{}
			}
			ps.Extra[name] = launch.RedactExtra(name, v)
		}
	}
	// The key id is recorded only beside digests: a launch that hides
	// nothing compares whole without one.
	if ps.Values = launch.Values(s, key); len(ps.Values) > 0 {
		ps.KeyID = key.ID()
	}
	return ps
}

// Build pins every tool (and, in format 2, every server) of an
// inventory with one approval record, without value digests.
func Build(inv *engine.Inventory, format int, ap Approval) (*Pin, error) {
	return BuildWith(inv, format, ap, Options{})
}

// BuildWith is Build with options: with a key, each server's record holds
// the keyed digests of its hidden values.
func BuildWith(inv *engine.Inventory, format int, ap Approval, opt Options) (*Pin, error) {
	p := &Pin{Format: format}
	if format == Format1 {
		p.ToolVersion = OriginalVersion
		ap.At = ""
	} else {
		p.Exclude = DefaultExclude()
	}
	// Tools are independent: they are encoded and hashed on every CPU,
	// each worker with its own buffer, into their places in the list.
	tools := inv.Tools()
	p.Tools = make([]*Tool, len(tools))
	parallel(len(tools), func(lo, hi int) {
		var buf []byte
		for i := lo; i < hi; i++ {
			p.Tools[i], buf = toolFrom(buf, tools[i], format, p.Exclude, ap)
		}
	})
	if format >= Format2 {
		for _, s := range inv.Servers {
			ps := ServerWith(s, ap, opt.Key)
			ps.Sources = addSource(nil, opt.Source)
			p.Servers = append(p.Servers, ps)
		}
	}
	p.sort()
	return p, nil
}

func (p *Pin) sort() {
	p.sortEntries()
	p.index()
}

func (p *Pin) sortEntries() {
	sort.SliceStable(p.Tools, func(i, j int) bool { return p.Tools[i].Key < p.Tools[j].Key })
	sort.SliceStable(p.Servers, func(i, j int) bool { return p.Servers[i].Name < p.Servers[j].Name })
	sort.SliceStable(p.Acceptances, func(i, j int) bool {
		a, b := p.Acceptances[i], p.Acceptances[j]
		if a.Class != b.Class {
			return a.Class < b.Class
		}
		if a.Subject != b.Subject {
			return a.Subject < b.Subject
		}
		return a.ID < b.ID
	})
}

// sorted returns a copy of p with its entries in document order; p is not
// changed. Marshal writes it.
func (p *Pin) sorted() *Pin {
	q := *p
	q.Tools = append([]*Tool(nil), p.Tools...)
	q.Servers = append([]*Server(nil), p.Servers...)
	q.Acceptances = append([]*Acceptance(nil), p.Acceptances...)
	q.sortEntries() // Marshal looks nothing up: no index
	return &q
}

// --- writing ---

func str(s string) jsonv.Value { return jsonv.Value{Kind: jsonv.String, Str: s} }

func strs(ss []string) jsonv.Value {
	v := jsonv.Value{Kind: jsonv.Array, Items: []jsonv.Value{}}
	for _, s := range ss {
		v.Items = append(v.Items, str(s))
	}
	return v
}

// strMap writes a map of strings as an object; the encoder sorts keys.
func strMap(m map[string]string) jsonv.Value {
	o := newObj()
	for k, v := range m {
		o.set(k, str(v))
	}
	return o.v
}

type objBuilder struct{ v jsonv.Value }

func newObj() *objBuilder {
	return &objBuilder{jsonv.Value{Kind: jsonv.Object, Members: []jsonv.Member{}}}
}
func (o *objBuilder) set(k string, v jsonv.Value) *objBuilder {
	o.v.Members = append(o.v.Members, jsonv.Member{Key: k, Value: v})
	return o
}

// pinEscape escapes, in format 2 pins, every character a reviewer could
// not see: controls, bidi and zero-width characters, tags. Printable
// non-ASCII text stays readable.
func pinEscape(r rune) bool { return sanitize.NeedsEscape(r) }

// Marshal writes the pin document: sorted keys, two-space indent, LF, one
// final newline. Format 1 is byte-compatible with the original's files.
func (p *Pin) Marshal() []byte {
	p = p.sorted()
	// The tool list is written apart (see appendTools): the document is
	// written with an empty one, which, "tools" sorting last, is its end.
	doc := newObj().set("tools", jsonv.Value{Kind: jsonv.Array, Items: []jsonv.Value{}})
	var escape func(rune) bool
	if p.Format == Format1 {
		doc.set("format", str(Format1ID)).set("tool_version", str(p.ToolVersion))
	} else {
		escape = pinEscape
		doc.set("format", str(Format2ID))
		doc.set("fields", newObj().set("exclude", strs(p.Exclude)).v)
		servers := jsonv.Value{Kind: jsonv.Array, Items: []jsonv.Value{}}
		for _, s := range p.Servers {
			o := newObj().set("name", str(s.Name)).set("transport", str(s.Transport)).
				set("approved_by", str(s.By)).set("approved_note", str(s.Note)).set("approved_at", str(s.At))
			if s.Command != "" {
				o.set("command", str(s.Command))
			}
			if s.Args != nil {
				o.set("args", strs(s.Args))
			}
			if s.URL != "" {
				o.set("url", str(s.URL))
			}
			if len(s.EnvKeys) > 0 {
				o.set("env_keys", strs(s.EnvKeys))
			}
			if len(s.HeaderKeys) > 0 {
				o.set("header_keys", strs(s.HeaderKeys))
			}
			if len(s.Extra) > 0 {
				o.set("launch_fields", strMap(s.Extra))
			}
			if s.KeyID != "" {
				o.set("key_id", str(s.KeyID))
			}
			if len(s.Values) > 0 {
				o.set("value_digests", strMap(s.Values))
			}
			if len(s.Sources) > 0 {
				o.set("sources", strs(s.Sources))
			}
			servers.Items = append(servers.Items, o.v)
		}
		doc.set("servers", servers)
		accs := jsonv.Value{Kind: jsonv.Array, Items: []jsonv.Value{}}
		for _, a := range p.Acceptances {
			o := newObj().set("id", str(a.ID)).set("class", str(string(a.Class))).set("subject", str(a.Subject)).
				set("hash", str(a.Hash)).set("approved_by", str(a.By)).set("approved_note", str(a.Note)).set("approved_at", str(a.At))
			if a.Signal != "" {
				o.set("signal", str(a.Signal))
			}
			accs.Items = append(accs.Items, o.v)
		}
		doc.set("acceptances", accs)
	}
	out := canon.AppendIndent(nil, &doc.v, 0, escape)
	const empty = "\"tools\": []\n}"
	if len(p.Tools) == 0 {
		return append(out, '\n')
	}
	// "tools" sorts after every other top-level key, so the document
	// written with an empty list ends with it.
	out = append(out[:len(out)-len(empty)], "\"tools\": ["...)
	out = appendTools(out, p.Tools, p.Format, escape)
	return append(out, "\n  ]\n}\n"...)
}

// appendTools writes the entries of the tool list at depth 1 as
// AppendIndent writes an array's items (",\n    " between them), in
// contiguous ranges on every CPU: the bytes do not depend on the split.
//
// The document is written once, not in parts joined at the end: each
// range is written into its own region of one buffer, sized from an
// estimate of what it takes (entryBound), and the regions are then moved
// together in place. A range that outgrows its region is written
// elsewhere by append, and then the parts are joined into a new buffer,
// as before.
func appendTools(dst []byte, tools []*Tool, format int, escape func(rune) bool) []byte {
	n := len(tools)
	w := workers(n)
	bounds := make([]int, w+1) // region k is [bounds[k], bounds[k+1])
	bounds[0] = len(dst)
	for k := range w {
		size := 0
		for _, t := range tools[k*n/w : (k+1)*n/w] {
			size += entryBound(t)
		}
		bounds[k+1] = bounds[k] + size
	}
	const tail = 16 // the document's end, which Marshal appends
	out := make([]byte, len(dst), bounds[w]+tail)
	copy(out, dst)
	parts := make([][]byte, w)
	parallelIn(w, n, func(k, lo, hi int) {
		// The region's capacity ends where the next begins: an append
		// past it moves the part out instead of writing into the next.
		b := out[bounds[k]:bounds[k]:bounds[k+1]]
		for i := lo; i < hi; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n    "...)
			b = appendToolEntry(b, tools[i], format, escape)
		}
		parts[k] = b
	})
	fits := true
	for k, b := range parts {
		fits = fits && len(b) <= bounds[k+1]-bounds[k]
	}
	if !fits {
		size := len(dst)
		for _, b := range parts {
			size += len(b)
		}
		joined := make([]byte, len(dst), size+tail)
		copy(joined, dst)
		for _, b := range parts {
			joined = append(joined, b...)
		}
		return joined
	}
	// Each region moves down to where the one before it ended (copy is
	// a memmove); no region has moved yet when it is read.
	end := len(dst)
	for k, b := range parts {
		end += copy(out[end:bounds[k]+len(b)], b)
	}
	return out[:end]
}

// entryBound is an estimate, meant to be generous, of the bytes
// appendToolEntry writes for t (with the separator before it): the
// indented descriptor is about 1.8 times its canonical form (t.size) in
// a pin of real tools, 2.6 times at most.
func entryBound(t *Tool) int {
	return 2*(len(t.Key)+len(t.Server)+len(t.Name)+len(t.By)+len(t.Note)+len(t.At)) + 400 + t.size*5/2
}

// appendToolEntry writes one entry of the tool list at depth 2, as
// AppendIndent writes the entry's object (keys sorted, each member on
// its own line), without building it.
func appendToolEntry(dst []byte, t *Tool, format int, escape func(rune) bool) []byte {
	str := func(dst []byte, key, v string, first bool) []byte {
		if !first {
			dst = append(dst, ',')
		}
		dst = append(dst, "\n      \""...)
		dst = append(dst, key...)
		dst = append(dst, "\": "...)
		return canon.AppendIndentString(dst, v, escape)
	}
	dst = append(dst, '{')
	if format >= Format2 {
		dst = str(dst, "approved_at", t.At, true)
	}
	dst = str(dst, "approved_by", t.By, format < Format2)
	dst = str(dst, "approved_note", t.Note, false)
	dst = append(dst, ",\n      \"descriptor\": "...)
	switch d, ok := t.desc.Load(), false; {
	case d != nil:
		dst = canon.AppendIndent(dst, d, 3, escape)
	case t.from != nil:
		dst = canon.AppendIndentTree(dst, t.from, 3, escape)
	default:
		// A loaded entry: its canonical text, re-indented (parsed only
		// if it were not canonical, which Load does not let happen).
		if dst, ok = canon.AppendIndentCanonical(dst, t.src, 3, escape); !ok {
			dst = canon.AppendIndent(dst, t.tree(), 3, escape)
		}
	}
	dst = str(dst, "digest", engine.Digest(t.Hash), false)
	dst = str(dst, "hash", t.Hash, false)
	dst = str(dst, "key", t.Key, false)
	dst = str(dst, "name", t.Name, false)
	dst = str(dst, "server", t.Server, false)
	return append(dst, "\n    }"...)
}

// workers is how many goroutines share n independent entries: every
// CPU, with at least 256 entries each.
func workers(n int) int { return max(1, min(runtime.GOMAXPROCS(0), n/256)) }

// parallel runs f over n entries in contiguous ranges, one per worker,
// and waits.
func parallel(n int, f func(lo, hi int)) {
	parallelIn(workers(n), n, func(_, lo, hi int) { f(lo, hi) })
}

// parallelIn runs f over n entries in w contiguous ranges, range k on
// its own goroutine as f(k, lo, hi), and waits.
func parallelIn(w, n int, f func(k, lo, hi int)) {
	var wg sync.WaitGroup
	for k := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(k, k*n/w, (k+1)*n/w)
		}()
	}
	wg.Wait()
}

// --- reading ---

// lowerHex matches exactly n lower-case hex digits (what the regular
// expression ^[0-9a-f]{n}$ matches, without one: this runs per entry).
type lowerHex int

func (n lowerHex) MatchString(s string) bool {
	if len(s) != int(n) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

var hexHash = lowerHex(64)
var hexID = lowerHex(16)

type pinReader struct {
	file string
	data []byte
	buf  []byte // canonical bytes of the descriptor being verified
}

func (r *pinReader) errAt(v *jsonv.Value, path, format string, args ...any) error {
	e := &engine.InputError{File: r.file, Path: path, Msg: fmt.Sprintf(format, args...)}
	if v != nil {
		e.Line, e.Col = jsonv.Position(r.data, v.Off)
	}
	return e
}

func (r *pinReader) str(obj *jsonv.Value, path, key string, required bool) (string, error) {
	v, ok := obj.Get(key)
	if !ok {
		if required {
			return "", r.errAt(obj, path, "pin entry missing '%s'", key)
		}
		return "", nil
	}
	if v.Kind != jsonv.String {
		return "", r.errAt(v, path+"."+key, "'%s' must be a string, got %s", key, v.Kind)
	}
	return v.Str, nil
}

func (r *pinReader) strList(obj *jsonv.Value, path, key string) ([]string, bool, error) {
	v, ok := obj.Get(key)
	if !ok {
		return nil, false, nil
	}
	if v.Kind != jsonv.Array {
		return nil, false, r.errAt(v, path+"."+key, "'%s' must be a list of strings, got %s", key, v.Kind)
	}
	out := []string{}
	for i := range v.Items {
		if v.Items[i].Kind != jsonv.String {
			return nil, false, r.errAt(&v.Items[i], fmt.Sprintf("%s.%s[%d]", path, key, i), "'%s' must be a list of strings, got %s", key, v.Items[i].Kind)
		}
		out = append(out, v.Items[i].Str)
	}
	return out, true, nil
}

func (r *pinReader) approval(obj *jsonv.Value, path string, format int) (Approval, error) {
	var ap Approval
	var err error
	if ap.By, err = r.str(obj, path, "approved_by", format >= Format2); err != nil {
		return ap, err
	}
	if ap.Note, err = r.str(obj, path, "approved_note", format >= Format2); err != nil {
		return ap, err
	}
	if format >= Format2 {
		if ap.At, err = r.str(obj, path, "approved_at", true); err != nil {
			return ap, err
		}
		if ap.At != "" {
			t, perr := time.Parse(time.RFC3339Nano, ap.At)
			if perr != nil || !strings.HasSuffix(ap.At, "Z") || t.Location() != time.UTC {
				v, _ := obj.Get("approved_at")
				return ap, r.errAt(v, path+".approved_at", "approved_at %q is not an RFC 3339 UTC time", sanitize.Text(ap.At))
			}
		}
	}
	return ap, nil
}

// ErrTampered is wrapped by every verification failure of a loaded pin.
var ErrTampered = errors.New("pin does not verify")

// Load parses and verifies a pin of either format: every entry's hash
// must match its stored descriptor, its digest must be the hash prefix and
// its key must be server/name. Any failure is an *engine.InputError naming the
// entry; a pin is never silently trusted.
func Load(file string, data []byte) (*Pin, error) {
	if len(data) > MaxBytes {
		return nil, tooLarge(file)
	}
	if p, ok := loadStream(file, string(data)); ok {
		return p, nil
	}
	return loadTree(file, data)
}

// LoadString is Load for a pin read into a string (fileio.ReadString):
// the fast reader reads src itself, where Load reads a string copy of
// data, so a large pin is in memory once while it loads, not twice. A
// pin the fast reader does not accept is read by the tree reader from a
// copy, as Load reads it.
func LoadString(file, src string) (*Pin, error) {
	if len(src) > MaxBytes {
		return nil, tooLarge(file)
	}
	if p, ok := loadStream(file, src); ok {
		return p, nil
	}
	return loadTree(file, []byte(src))
}

func tooLarge(file string) error {
	return &engine.InputError{File: file, Msg: fmt.Sprintf("pin is larger than the %d MiB pin cap", MaxBytes>>20)}
}

// loadTree is Load over the document's whole tree: the reference
// reading, and the one that reports what is wrong with a pin.
func loadTree(file string, data []byte) (*Pin, error) {
	root, err := jsonv.Parse(data)
	if err != nil {
		return nil, engine.SyntaxError(file, err)
	}
	r := &pinReader{file: file, data: data}
	p, err := r.head(&root)
	if err != nil {
		return nil, err
	}
	tv, ok := root.Get("tools")
	if !ok || tv.Kind != jsonv.Array {
		return nil, r.errAt(&root, "$.tools", "pin has no 'tools' list")
	}
	tools, errs := r.toolsParallel(tv.Items, p)
	seen := make(map[string]bool, len(tv.Items))
	for i := range tv.Items {
		path := "$.tools[" + strconv.Itoa(i) + "]"
		t, err := tools[i], errs[i]
		if err != nil {
			return nil, err
		}
		if seen[t.Identity()] {
			return nil, r.tampered(&tv.Items[i], path+".key", "key %q appears twice", sanitize.Text(t.Key))
		}
		seen[t.Identity()] = true
		p.Tools = append(p.Tools, t)
	}
	if p.Format >= Format2 {
		if err := r.servers(&root, p); err != nil {
			return nil, err
		}
		if err := r.acceptances(&root, p); err != nil {
			return nil, err
		}
	}
	p.index()
	return p, nil
}

// head reads what comes before the tool list: the root, the format and,
// by format, the tool version or the field set.
func (r *pinReader) head(root *jsonv.Value) (*Pin, error) {
	if root.Kind != jsonv.Object {
		return nil, r.errAt(root, "$", "pin root is not an object")
	}
	fv, ok := root.Get("format")
	if !ok || fv.Kind != jsonv.String {
		return nil, r.errAt(root, "$.format", "unknown pin format: missing or not a string")
	}
	p := &Pin{}
	var err error
	switch fv.Str {
	case Format1ID:
		p.Format = Format1
		p.ToolVersion, err = r.str(root, "$", "tool_version", false)
		if err != nil {
			return nil, err
		}
	case Format2ID:
		p.Format = Format2
		p.Exclude, err = r.fields(root)
		if err != nil {
			return nil, err
		}
	default:
		return nil, r.errAt(fv, "$.format", "unknown pin format: %q", sanitize.Text(fv.Str))
	}
	return p, nil
}

// toolsParallel reads and verifies every tool entry, on every CPU (the
// entries are independent; each worker has its own reader and buffer),
// and returns each entry's tool or error by index. Load goes through them
// in order, so the error reported is the first in the file, as ever.
func (r *pinReader) toolsParallel(items []jsonv.Value, p *Pin) ([]*Tool, []error) {
	tools := make([]*Tool, len(items))
	errs := make([]error, len(items))
	n := len(items)
	w := min(runtime.GOMAXPROCS(0), n/256)
	if w < 1 {
		w = 1
	}
	var wg sync.WaitGroup
	for k := range w {
		lo, hi := k*n/w, (k+1)*n/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			wr := &pinReader{file: r.file, data: r.data}
			for i := lo; i < hi; i++ {
				tools[i], errs[i] = wr.tool(&items[i], "$.tools["+strconv.Itoa(i)+"]", p)
				if errs[i] != nil {
					return // a later entry's result is never looked at
				}
			}
		}()
	}
	wg.Wait()
	return tools, errs
}

func (r *pinReader) fields(root *jsonv.Value) ([]string, error) {
	fv, ok := root.Get("fields")
	if !ok || fv.Kind != jsonv.Object {
		return nil, r.errAt(root, "$.fields", "format 2 pin has no 'fields' object")
	}
	ex, has, err := r.strList(fv, "$.fields", "exclude")
	if err != nil {
		return nil, err
	}
	if !has {
		return nil, r.errAt(fv, "$.fields", "'fields' has no 'exclude' list")
	}
	for _, e := range ex {
		switch e {
		case "name", "description", "input_schema", "inputSchema":
			return nil, r.errAt(fv, "$.fields.exclude", "field %q cannot be excluded", e)
		}
	}
	return ex, nil
}

func (r *pinReader) tool(v *jsonv.Value, path string, p *Pin) (*Tool, error) {
	if v.Kind != jsonv.Object {
		return nil, r.errAt(v, path, "pin tool entry is not an object")
	}
	t := &Tool{}
	var err error
	for _, f := range []struct {
		key string
		dst *string
	}{{"key", &t.Key}, {"server", &t.Server}, {"name", &t.Name}, {"hash", &t.Hash}} {
		if *f.dst, err = r.str(v, path, f.key, true); err != nil {
			return nil, err
		}
	}
	label := sanitize.Text(t.Key)
	if t.Key != t.Server+"/"+t.Name {
		return nil, r.tampered(v, path+".key", "entry %q: key is not server/name (%q)", label, sanitize.Text(t.Server+"/"+t.Name))
	}
	if !hexHash.MatchString(t.Hash) {
		return nil, r.tampered(v, path+".hash", "entry %q: hash is not 64 lower-case hex digits", label)
	}
	digest, err := r.str(v, path, "digest", true)
	if err != nil {
		return nil, err
	}
	if digest != t.Hash[:12] {
		return nil, r.tampered(v, path+".digest", "entry %q: digest %q is not the hash prefix", label, sanitize.Text(digest))
	}
	dv, ok := v.Get("descriptor")
	if !ok || dv.Kind != jsonv.Object {
		return nil, r.tampered(v, path+".descriptor", "entry %q: no descriptor object", label)
	}
	if nv, ok := dv.Get("name"); !ok || nv.Kind != jsonv.String || nv.Str != canon.Strip(t.Name) {
		return nil, r.tampered(dv, path+".descriptor.name", "entry %q: descriptor name does not match the entry name", label)
	}
	for _, f := range []string{"description", "input_schema"} {
		if _, ok := dv.Get(f); !ok {
			return nil, r.tampered(dv, path+".descriptor", "entry %q: descriptor has no '%s'", label, f)
		}
	}
	if p.Format == Format1 && len(dv.Members) != 3 {
		return nil, r.tampered(dv, path+".descriptor", "entry %q: a format-1 descriptor has exactly name, description and input_schema", label)
	}
	r.buf = canon.Append(r.buf[:0], dv)
	got := canon.Hash(r.buf)
	if got != t.Hash {
		return nil, r.tampered(dv, path+".descriptor", "entry %q: stored descriptor hashes to %s, not the recorded %s", label, engine.Digest(got), engine.Digest(t.Hash))
	}
	// What parsing the canonical bytes would give, without parsing them;
	// a stored descriptor is canonical already, so it is mostly shared.
	tree := canon.Tree(dv)
	t.desc.Store(&tree)
	t.size = len(r.buf)
	if t.Approval, err = r.approval(v, path, p.Format); err != nil {
		return nil, err
	}
	return t, nil
}

func (r *pinReader) servers(root *jsonv.Value, p *Pin) error {
	sv, ok := root.Get("servers")
	if !ok || sv.Kind != jsonv.Array {
		return r.errAt(root, "$.servers", "format 2 pin has no 'servers' list")
	}
	seen := map[string]bool{}
	for i := range sv.Items {
		path := fmt.Sprintf("$.servers[%d]", i)
		v := &sv.Items[i]
		if v.Kind != jsonv.Object {
			return r.errAt(v, path, "pin server entry is not an object")
		}
		s := &Server{}
		var err error
		if s.Name, err = r.str(v, path, "name", true); err != nil {
			return err
		}
		if seen[s.Identity()] {
			return r.tampered(v, path+".name", "server %q appears twice", sanitize.Text(s.Name))
		}
		seen[s.Identity()] = true
		if s.Transport, err = r.str(v, path, "transport", true); err != nil {
			return err
		}
		if s.Command, err = r.str(v, path, "command", false); err != nil {
			return err
		}
		if s.URL, err = r.str(v, path, "url", false); err != nil {
			return err
		}
		if s.Args, _, err = r.strList(v, path, "args"); err != nil {
			return err
		}
		if s.EnvKeys, _, err = r.strList(v, path, "env_keys"); err != nil {
			return err
		}
		if s.HeaderKeys, _, err = r.strList(v, path, "header_keys"); err != nil {
			return err
		}
		if err := r.launchRecord(v, path, s); err != nil {
			return err
		}
		if err := r.sources(v, path, s); err != nil {
			return err
		}
		if s.Approval, err = r.approval(v, path, p.Format); err != nil {
			return err
		}
		p.Servers = append(p.Servers, s)
	}
	return nil
}

var hexDigest = lowerHex(32)

// launchRecord reads a server entry's optional launch fields, key id and
// value digests (absent in pins written before they existed).
func (r *pinReader) launchRecord(v *jsonv.Value, path string, s *Server) error {
	var err error
	if s.Extra, err = r.strMap(v, path, "launch_fields"); err != nil {
		return err
	}
	for k := range s.Extra {
		if !slices.Contains(launch.ExtraFields, k) {
			fv, _ := v.Get("launch_fields")
			return r.errAt(fv, path+".launch_fields", "unknown launch field %q", sanitize.Text(k))
		}
	}
	if s.KeyID, err = r.str(v, path, "key_id", false); err != nil {
		return err
	}
	if s.KeyID != "" && !hexID.MatchString(s.KeyID) {
		return r.tampered(v, path+".key_id", "server %q: key_id is not 16 lower-case hex digits", sanitize.Text(s.Name))
	}
	if s.Values, err = r.strMap(v, path, "value_digests"); err != nil {
		return err
	}
	for f, d := range s.Values {
		if !hexDigest.MatchString(d) {
			return r.tampered(v, path+".value_digests", "server %q: digest of %q is not 32 lower-case hex digits", sanitize.Text(s.Name), sanitize.Text(f))
		}
	}
	if len(s.Values) > 0 && s.KeyID == "" {
		return r.tampered(v, path+".value_digests", "server %q: value digests without a key_id", sanitize.Text(s.Name))
	}
	return nil
}

// strMap reads an optional object of strings; nil when absent or empty.
func (r *pinReader) strMap(obj *jsonv.Value, path, key string) (map[string]string, error) {
	v, ok := obj.Get(key)
	if !ok {
		return nil, nil
	}
	if v.Kind != jsonv.Object {
		return nil, r.errAt(v, path+"."+key, "'%s' must be an object of strings, got %s", key, v.Kind)
	}
	var out map[string]string
	for i := range v.Members {
		m := &v.Members[i]
		if m.Value.Kind != jsonv.String {
			return nil, r.errAt(&m.Value, path+"."+key, "'%s' values must be strings, got %s", key, m.Value.Kind)
		}
		if out == nil {
			out = map[string]string{}
		}
		out[m.Key] = m.Value.Str
	}
	return out, nil
}

func (r *pinReader) acceptances(root *jsonv.Value, p *Pin) error {
	av, ok := root.Get("acceptances")
	if !ok {
		return nil
	}
	if av.Kind != jsonv.Array {
		return r.errAt(av, "$.acceptances", "'acceptances' must be a list, got %s", av.Kind)
	}
	for i := range av.Items {
		path := fmt.Sprintf("$.acceptances[%d]", i)
		v := &av.Items[i]
		if v.Kind != jsonv.Object {
			return r.errAt(v, path, "acceptance is not an object")
		}
		a := &Acceptance{}
		var err error
		var class string
		if a.ID, err = r.str(v, path, "id", true); err != nil {
			return err
		}
		if !hexID.MatchString(a.ID) {
			return r.tampered(v, path+".id", "acceptance id is not 16 lower-case hex digits")
		}
		if class, err = r.str(v, path, "class", true); err != nil {
			return err
		}
		a.Class = engine.Class(class)
		switch a.Class {
		case engine.Shadow, engine.Poison, engine.Transport:
		default:
			return r.errAt(v, path+".class", "class %q cannot be accepted", sanitize.Text(class))
		}
		if a.Subject, err = r.str(v, path, "subject", true); err != nil {
			return err
		}
		if a.Signal, err = r.str(v, path, "signal", false); err != nil {
			return err
		}
		if a.Hash, err = r.str(v, path, "hash", true); err != nil {
			return err
		}
		if !hexHash.MatchString(a.Hash) {
			return r.tampered(v, path+".hash", "acceptance hash is not 64 lower-case hex digits")
		}
		if a.Approval, err = r.approval(v, path, p.Format); err != nil {
			return err
		}
		p.Acceptances = append(p.Acceptances, a)
	}
	return nil
}

// tampered reports a pin that does not verify; the error wraps
// ErrTampered.
func (r *pinReader) tampered(v *jsonv.Value, path, format string, args ...any) error {
	e := r.errAt(v, path, format, args...).(*engine.InputError)
	e.Msg = "pin does not verify: " + e.Msg
	e.Err = ErrTampered
	return e
}

// Subset returns a view of the pin holding only the tools and servers of
// the named servers (acceptances are kept whole). The service scans each
// watched file against the part of the shared pin that file owns, so one
// file's tools are not REMOVED from another's scan.
func (p *Pin) Subset(servers map[string]bool) *Pin {
	q := &Pin{Format: p.Format, ToolVersion: p.ToolVersion, Exclude: append([]string(nil), p.Exclude...), Acceptances: p.Acceptances}
	for _, t := range p.Tools {
		if servers[t.Server] {
			q.Tools = append(q.Tools, t)
		}
	}
	for _, s := range p.Servers {
		if servers[s.Name] {
			q.Servers = append(q.Servers, s)
		}
	}
	q.index()
	return q
}

// Merge adds the tools and servers of other that p does not have; p's
// entries win. It builds one trust-on-first-use pin from several files.
func (p *Pin) Merge(other *Pin) {
	for _, t := range other.Tools {
		if p.Tool(t.Key) == nil {
			p.Tools = append(p.Tools, t)
		}
	}
	for _, s := range other.Servers {
		if have := p.Server(s.Name); have == nil {
			p.Servers = append(p.Servers, s)
		} else if len(s.Sources) > 0 {
			// The same name in two files: one entry, owned by both.
			c := *have
			c.Sources = addSource(have.Sources, s.Sources...)
			p.Servers[slices.Index(p.Servers, have)] = &c
		}
	}
	p.sort()
}

// ToolsOnly returns a view of the pin without launch entries. A client's
// tool source (a cache or a log) holds what servers sent, not how they
// were launched, so it is compared with the pinned tools only: its scan
// must not report a pinned launch config changed or a server ADDED.
func (p *Pin) ToolsOnly() *Pin {
	q := &Pin{Format: p.Format, ToolVersion: p.ToolVersion, Exclude: append([]string(nil), p.Exclude...), Tools: p.Tools, Acceptances: p.Acceptances}
	q.index()
	return q
}

// ServersOnly returns a view of the pin without tool entries. A client
// config lists launch lines, not tools, so it is compared with the pinned
// launch configs only: its scan must not report every pinned tool REMOVED.
func (p *Pin) ServersOnly() *Pin {
	q := &Pin{Format: p.Format, ToolVersion: p.ToolVersion, Exclude: append([]string(nil), p.Exclude...), Servers: p.Servers, Acceptances: p.Acceptances}
	q.index()
	return q
}

// sources reads a server entry's optional sources: a list of non-empty
// strings, each once.
func (r *pinReader) sources(v *jsonv.Value, path string, s *Server) error {
	src, _, err := r.strList(v, path, "sources")
	if err != nil {
		return err
	}
	for i, x := range src {
		if x == "" || slices.Contains(src[:i], x) {
			return r.errAt(v, path+".sources", "server %q: sources must be distinct non-empty strings", sanitize.Text(s.Name))
		}
	}
	if len(src) > 0 {
		s.Sources = addSource(nil, src...)
	}
	return nil
}
