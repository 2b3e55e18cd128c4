package clientconfig

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/descriptorpin/descriptorpin/engine"
)

// loadTOML parses a TOML document. go-toml decodes it (rejecting duplicate
// keys and tables defined twice, as the TOML spec requires, with a
// position); a second pass over go-toml's syntax tree records where each
// key is first written, so servers keep file order and errors a line.
func (p *parser) loadTOML(data []byte) (*node, error) {
	p.data, p.starts = data, nil
	offs, keys, at := tomlScan(data)
	if keys > maxTOMLKeys {
		line, col := p.offPos(at)
		return nil, &engine.InputError{File: p.file, Line: line, Col: col, Msg: fmt.Sprintf("invalid TOML: more than %d keys and tables", maxTOMLKeys)}
	}
	var m map[string]any
	if err := toml.Unmarshal(data, &m); err != nil {
		return nil, p.tomlErr(err)
	}
	if len(m) == 0 {
		return nil, nil
	}
	return p.fromTOML(m, nil, true, "$", offs, 0, 0)
}

// maxTOMLKeys caps the keys and table headers of a TOML document. go-toml's
// duplicate-key tracking costs time quadratic in the number of keys, so a
// few megabytes of keys would stall a scan for minutes; a real Codex config
// has a few hundred.
const maxTOMLKeys = 10000

func (p *parser) tomlErr(err error) error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		// Number and date parse errors quote the literal, which could be a
		// mistyped secret.
		if strings.Contains(msg, "unable to parse") || strings.Contains(msg, "strconv.") || strings.Contains(msg, "parsing time") {
			msg = "a malformed number or date"
		}
		// go-toml's Key() is the key local to its table, not a full path:
		// the line and column say where.
		return &engine.InputError{File: p.file, Line: line, Col: col, Msg: "invalid TOML: " + msg}
	}
	return &engine.InputError{File: p.file, Msg: "invalid TOML"}
}

// tomlScan maps each key path (parts joined by NUL) to the byte offset of
// the first place the file writes it: a table header, a key of a key/value
// line, or a key inside an inline table. It also counts keys and table
// headers, stopping one past maxTOMLKeys, and returns where it stopped. It
// stops quietly at a syntax error, which go-toml then reports.
func tomlScan(data []byte) (offs map[string]int, count, at int) {
	offs = map[string]int{}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	// Only the first few levels matter (mcp_servers.<name>.<field>.<key>);
	// a cap keeps a key with a million dotted parts cheap.
	const keep = 4
	record := func(parts []string, off int) {
		for i := 1; i <= len(parts) && i <= keep; i++ {
			k := strings.Join(parts[:i], "\x00")
			if _, ok := offs[k]; !ok {
				offs[k] = off
			}
		}
	}
	var walk func(prefix []string, kv *unstable.Node, depth int)
	walk = func(prefix []string, kv *unstable.Node, depth int) {
		count++
		parts := append([]string(nil), prefix...)
		off := -1
		it := kv.Key()
		for it.Next() {
			k := it.Node()
			if off < 0 {
				off = int(k.Raw.Offset)
			}
			parts = append(parts, string(k.Data))
		}
		record(parts, off)
		at = off
		v := kv.Value()
		if v.Kind == unstable.InlineTable && len(parts) < keep && depth < keep {
			c := v.Children()
			for c.Next() {
				if c.Node().Kind == unstable.KeyValue {
					walk(parts, c.Node(), depth+1)
				}
			}
		} else if v.Kind == unstable.InlineTable || v.Kind == unstable.Array {
			count += countKeys(v, 0)
		}
	}
	for count <= maxTOMLKeys && p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = table[:0]
			off := -1
			it := e.Key()
			for it.Next() {
				if off < 0 {
					off = int(it.Node().Raw.Offset)
				}
				table = append(table, string(it.Node().Data))
			}
			record(table, off)
			count++
			at = off
		case unstable.KeyValue:
			walk(table, e, 0)
		}
	}
	return offs, count, max(at, 0)
}

// countKeys counts the key/values inside the inline tables of a value,
// without recording them. The parser caps nesting at 10000 levels.
func countKeys(v *unstable.Node, n int) int {
	c := v.Children()
	for c.Next() {
		switch k := c.Node(); k.Kind {
		case unstable.KeyValue:
			n++
			n = countKeys(k.Value(), n)
		case unstable.InlineTable, unstable.Array:
			n = countKeys(k, n)
		}
		if n > maxTOMLKeys {
			return n
		}
	}
	return n
}

// fromTOML converts go-toml's generic value. parts is the key path used
// to look up positions (track is false inside arrays, whose items the
// position pass does not record); object keys follow the file order
// recorded in offs, then name order.
func (p *parser) fromTOML(v any, parts []string, track bool, path string, offs map[string]int, inherit, depth int) (*node, error) {
	off := inherit
	if track && len(parts) > 0 {
		if o, ok := offs[strings.Join(parts, "\x00")]; ok {
			off = o
		}
	}
	n := &node{off: off}
	if depth > engine.MaxDepth {
		return nil, p.errAt(n, path, "invalid TOML: nesting deeper than %d levels", engine.MaxDepth)
	}
	switch v := v.(type) {
	case nil:
		n.kind = kNull
	case string:
		n.kind, n.str = kString, v
	case bool:
		n.kind, n.b = kBool, v
	case int64:
		n.kind, n.str = kNumber, strconv.FormatInt(v, 10)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			n.kind, n.other = kOther, "non-finite number"
		} else {
			n.kind, n.str = kNumber, strconv.FormatFloat(v, 'g', -1, 64)
		}
	case map[string]any:
		n.kind = kObject
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		child := func(k string) []string {
			if !track || len(parts) >= 4 {
				return nil
			}
			return append(parts[:len(parts):len(parts)], k)
		}
		at := make(map[string]int, len(keys))
		for _, k := range keys {
			at[k] = math.MaxInt
			if c := child(k); c != nil {
				if o, ok := offs[strings.Join(c, "\x00")]; ok {
					at[k] = o
				}
			}
		}
		sort.Slice(keys, func(i, j int) bool {
			ai, aj := at[keys[i]], at[keys[j]]
			if ai != aj {
				return ai < aj
			}
			return keys[i] < keys[j]
		})
		for _, k := range keys {
			c := child(k)
			kid, err := p.fromTOML(v[k], c, c != nil, key(path, k), offs, off, depth+1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k)
			n.vals = append(n.vals, kid)
		}
	case []any:
		n.kind = kArray
		for i, item := range v {
			kid, err := p.fromTOML(item, nil, false, index(path, i), offs, off, depth+1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, kid)
		}
	case []map[string]any:
		n.kind = kArray
		for i, item := range v {
			kid, err := p.fromTOML(item, nil, false, index(path, i), offs, off, depth+1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, kid)
		}
	default:
		n.kind, n.other = kOther, tomlTypeName(v)
	}
	return n, nil
}

func tomlTypeName(v any) string {
	switch v.(type) {
	case toml.LocalDate, toml.LocalTime, toml.LocalDateTime:
		return "TOML date"
	}
	t := fmt.Sprintf("%T", v)
	if t == "time.Time" {
		return "TOML date"
	}
	return "TOML value"
}
