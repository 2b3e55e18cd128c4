package clientconfig

import (
	"fmt"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// kind is the type of a node, whatever syntax it came from.
type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
	kOther // a TOML date, a YAML binary or custom tag: never a string
)

// node is one value of a parsed document: JSON, YAML and TOML all become
// this tree, so one reader handles every client.
type node struct {
	kind  kind
	other string // the type name for kOther
	str   string // kString text, kNumber literal
	b     bool
	items []*node
	keys  []string // kObject keys, in file order, unique
	vals  []*node
	off   int // byte offset in the document, -1 when not known
	line  int // set directly by YAML; 0 means use off
	col   int
}

func (n *node) typeName() string {
	switch n.kind {
	case kNull:
		return "null"
	case kBool:
		return "boolean"
	case kNumber:
		return "number"
	case kString:
		return "string"
	case kArray:
		return "array"
	case kObject:
		return "object"
	}
	return n.other
}

func (n *node) get(key string) (*node, bool) {
	for i, k := range n.keys {
		if k == key {
			return n.vals[i], true
		}
	}
	return nil, false
}

// parser holds what one Parse call knows.
type parser struct {
	file   string
	data   []byte // the bytes offsets refer to
	starts []int  // byte offsets of line starts, built on first use
	client string
	scope  string
	strict bool // a file that fits no shape is an error
	cols   map[*engine.Server]int
}

// pos returns the 1-based line and byte column of a node.
func (p *parser) pos(n *node) (int, int) {
	if n == nil {
		return 0, 0
	}
	if n.line > 0 {
		return n.line, n.col
	}
	if n.off < 0 {
		return 0, 0
	}
	return p.offPos(n.off)
}

func (p *parser) offPos(off int) (int, int) {
	if p.starts == nil {
		p.starts = append(p.starts, 0)
		for i, c := range p.data {
			if c == '\n' {
				p.starts = append(p.starts, i+1)
			}
		}
	}
	if off > len(p.data) {
		off = len(p.data)
	}
	i := sort.SearchInts(p.starts, off+1) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, off - p.starts[i] + 1
}

func (p *parser) errAt(n *node, path, format string, args ...any) error {
	line, col := p.pos(n)
	return &engine.InputError{File: p.file, Path: path, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// key appends an object key to a JSON path.
func key(path, k string) string {
	var b strings.Builder
	b.WriteString(path)
	jsonv.AppendKey(&b, k)
	return b.String()
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// q quotes a name from the input, with anything invisible shown escaped.
func q(s string) string { return "'" + sanitize.Text(s) + "'" }

// fromJSON converts a jsonv tree; jsonv has already capped its depth.
func fromJSON(v *jsonv.Value) *node {
	n := &node{off: v.Off}
	switch v.Kind {
	case jsonv.Null:
		n.kind = kNull
	case jsonv.Bool:
		n.kind, n.b = kBool, v.Bool
	case jsonv.Number:
		n.kind, n.str = kNumber, v.Str
	case jsonv.String:
		n.kind, n.str = kString, v.Str
	case jsonv.Array:
		n.kind = kArray
		n.items = make([]*node, len(v.Items))
		for i := range v.Items {
			n.items[i] = fromJSON(&v.Items[i])
		}
	case jsonv.Object:
		n.kind = kObject
		n.keys = make([]string, len(v.Members))
		n.vals = make([]*node, len(v.Members))
		for i := range v.Members {
			n.keys[i] = v.Members[i].Key
			n.vals[i] = fromJSON(&v.Members[i].Value)
		}
	}
	return n
}
