package service

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// The lenient reading of a JSON client config: what the client itself
// reads when this tool's strict parser refuses the file. Node's
// JSON.parse (Claude Desktop, Cursor, Claude Code and the other Node
// clients) and VS Code's JSONC parser accept what jsonv rejects on
// purpose: a duplicate key (the last value wins, at the first key's
// place), a lone UTF-16 surrogate escape, invalid UTF-8 (read as U+FFFD
// by the UTF-8 decoder before JSON.parse sees the text), and anything at
// all inside a comment. A rug pull must not hide behind one of them, so
// the service scans what the client would run, and reports the file's
// strictness problem as a finding of its own (INPUT/lenient-parse).

// lnode is one value of the lenient tree: object members keep their
// first position and their last value, as a JavaScript object does.
type lnode struct {
	kind  byte // 'o' object, 'a' array, 'v' a scalar held as its JSON text
	keys  []string
	vals  []*lnode
	index map[string]int
	items []*lnode
	raw   []byte
}

// lenientJSON rewrites data as the strict JSON of what a lenient client
// reads, or fails where the client would fail too (a truncated file).
func lenientJSON(data []byte) (*lnode, error) {
	data = bytes.TrimPrefix(data, bom)
	clean := stripJSONC(data)
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.UseNumber()
	root, err := lread(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the top-level value")
	}
	return root, nil
}

var bom = []byte("\xef\xbb\xbf")

func lread(dec *json.Decoder, depth int) (*lnode, error) {
	if depth > engine.MaxDepth {
		return nil, fmt.Errorf("nesting deeper than %d levels", engine.MaxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &lnode{kind: 'o', index: map[string]int{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				v, err := lread(dec, depth+1)
				if err != nil {
					return nil, err
				}
				if i, dup := n.index[k]; dup {
					n.vals[i] = v // the last value, at the first key's place
					continue
				}
				n.index[k] = len(n.keys)
				n.keys = append(n.keys, k)
				n.vals = append(n.vals, v)
			}
			_, err := dec.Token()
			return n, err
		case '[':
			n := &lnode{kind: 'a'}
			for dec.More() {
				v, err := lread(dec, depth+1)
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, v)
			}
			_, err := dec.Token()
			return n, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		// Strings come back decoded with invalid UTF-8 and lone
		// surrogates as U+FFFD; Marshal writes them as valid JSON.
		raw, err := json.Marshal(t)
		if err != nil {
			return nil, err
		}
		return &lnode{kind: 'v', raw: raw}, nil
	}
}

// encode writes the tree as strict JSON.
func (n *lnode) encode(b *bytes.Buffer) {
	switch n.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			n.vals[i].encode(b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, v := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			v.encode(b)
		}
		b.WriteByte(']')
	default:
		b.Write(n.raw)
	}
}

// rename renames the object member at path (a jsonv path, as a parse
// error names it) to newKey(its key); it reports whether it found it.
func (n *lnode) rename(prefix, path string, newKey func(string) string) bool {
	switch n.kind {
	case 'o':
		for i, k := range n.keys {
			var b strings.Builder
			b.WriteString(prefix)
			jsonv.AppendKey(&b, k)
			p := b.String()
			if p == path {
				nk := newKey(k)
				delete(n.index, k)
				n.keys[i] = nk
				n.index[nk] = i
				return true
			}
			if strings.HasPrefix(path, p) && n.vals[i].rename(p, path, newKey) {
				return true
			}
		}
	case 'a':
		for i, v := range n.items {
			p := fmt.Sprintf("%s[%d]", prefix, i)
			if strings.HasPrefix(path, p) && v.rename(p, path, newKey) {
				return true
			}
		}
	}
	return false
}

// stripJSONC blanks comments and trailing commas with spaces, whatever
// bytes the comments hold, as VS Code's JSONC reader skips them. Strings
// are left as they are.
func stripJSONC(data []byte) []byte {
	out := append([]byte(nil), data...)
	inStr, esc := false, false
	lastComma := -1
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr, lastComma = true, -1
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			stop := len(out)
			if end := bytes.Index(out[i+2:], []byte("*/")); end >= 0 {
				stop = i + 2 + end + 2
			}
			for k := i; k < stop; k++ {
				if out[k] != '\n' {
					out[k] = ' '
				}
			}
			i = stop - 1
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		default:
			lastComma = -1
		}
	}
	return out
}

// parseLenient parses a client config that failed strictErr the way its
// client reads it. Two servers of one name (a user-scope and a project
// one in ~/.claude.json) are both scanned, the later one renamed, since
// the client runs one of them and which one depends on where it is
// started.
func (d *Daemon) parseLenient(t target, data []byte) (*engine.Inventory, string, error) {
	if t.kind == KindInventory {
		return nil, "", errors.New("an inventory is read strictly")
	}
	tree, err := lenientJSON(data)
	if err != nil {
		return nil, "", err
	}
	for i := 2; i < 2+maxRenames; i++ {
		var b bytes.Buffer
		tree.encode(&b)
		inv, kind, err := ParseAny(t.path, b.Bytes(), KindClientConfig, d.home)
		if err == nil {
			return inv, kind, nil
		}
		var ie *engine.InputError
		if !errors.As(err, &ie) || !strings.Contains(ie.Msg, "is already used by") || ie.Path == "" {
			return nil, "", err
		}
		if !tree.rename("$", ie.Path, func(k string) string { return fmt.Sprintf("%s#%d", k, i) }) {
			return nil, "", err
		}
	}
	return nil, "", errors.New("too many servers share a name")
}

// maxRenames bounds the renames of colliding server names.
const maxRenames = 64
