package clientconfig

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/descriptorpin/descriptorpin/engine"
)

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// loadYAML parses one YAML document into a node tree. It rejects what
// would let two readers see different servers: duplicate keys, aliases
// (also the way to an alias bomb), merge keys, non-scalar keys, a second
// document, and nesting deeper than engine.MaxDepth. An empty document, or
// one that is only comments or null, gives nil and no error.
func (p *parser) loadYAML(data []byte) (*node, error) {
	p.data, p.starts = data, nil
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, p.yamlErr(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, p.yamlErr(err)
		}
		return nil, &engine.InputError{File: p.file, Line: extra.Line, Col: extra.Column, Msg: "invalid YAML: more than one document; readers disagree on which one counts"}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, nil
		}
		root = root.Content[0]
	}
	n, err := p.fromYAML(root, "$", 0)
	if err != nil {
		return nil, err
	}
	if n.kind == kNull {
		return nil, nil
	}
	return n, nil
}

func (p *parser) yamlErr(err error) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &engine.InputError{File: p.file, Line: line, Col: 1, Msg: "invalid YAML: " + m[2]}
	}
	msg := err.Error()
	if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	return &engine.InputError{File: p.file, Msg: "invalid YAML: " + msg}
}

func (p *parser) yamlAt(y *yaml.Node, path, msg string) error {
	return &engine.InputError{File: p.file, Path: path, Line: y.Line, Col: y.Column, Msg: "invalid YAML: " + msg}
}

func (p *parser) fromYAML(y *yaml.Node, path string, depth int) (*node, error) {
	n := &node{off: -1, line: y.Line, col: y.Column}
	switch y.Kind {
	case yaml.AliasNode:
		return nil, p.yamlAt(y, path, "aliases (*name) are not accepted in a client config")
	case yaml.DocumentNode:
		return nil, p.yamlAt(y, path, "unexpected nested document")
	case yaml.ScalarNode:
		switch tag := y.ShortTag(); tag {
		case "!!str", "!!timestamp":
			// A YAML 1.2 reader (Continue's) reads an unquoted date as text.
			n.kind, n.str = kString, y.Value
		case "!!int", "!!float":
			n.kind, n.str = kNumber, y.Value
		case "!!bool":
			var b bool
			if err := y.Decode(&b); err != nil {
				return nil, p.yamlAt(y, path, "a boolean that does not read as true or false")
			}
			n.kind, n.b = kBool, b
		case "!!null":
			n.kind = kNull
		default:
			n.kind, n.other = kOther, "YAML "+tag
		}
		return n, nil
	}
	if depth >= engine.MaxDepth {
		return nil, p.yamlAt(y, path, "nesting deeper than "+strconv.Itoa(engine.MaxDepth)+" levels")
	}
	switch y.Kind {
	case yaml.SequenceNode:
		n.kind = kArray
		n.items = make([]*node, 0, len(y.Content))
		for i, c := range y.Content {
			cn, err := p.fromYAML(c, index(path, i), depth+1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, cn)
		}
	case yaml.MappingNode:
		n.kind = kObject
		seen := make(map[string]int, len(y.Content)/2)
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				return nil, p.yamlAt(k, path, "a mapping key must be a plain value")
			}
			if k.ShortTag() == "!!merge" {
				return nil, p.yamlAt(k, path, "merge keys (<<) are not accepted in a client config")
			}
			kp := key(path, k.Value)
			if first, dup := seen[k.Value]; dup {
				return nil, p.yamlAt(k, kp, "duplicate key "+strconv.Quote(k.Value)+" (first at line "+strconv.Itoa(first)+")")
			}
			seen[k.Value] = k.Line
			vn, err := p.fromYAML(v, kp, depth+1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k.Value)
			n.vals = append(n.vals, vn)
		}
	default:
		return nil, p.yamlAt(y, path, "unexpected node")
	}
	return n, nil
}
