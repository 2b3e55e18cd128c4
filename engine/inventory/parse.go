// Package inventory parses DescriptorPin inventory documents into the
// engine's domain types. The parser is strict: every problem is an
// *engine.InputError naming the file, the JSON path and the position.
package inventory

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Parse parses an inventory document. file is the name used in
// error messages. Every problem is an *engine.InputError naming the JSON path.
func Parse(file string, data []byte) (*engine.Inventory, error) {
	if len(data) > engine.MaxFileBytes {
		return nil, tooLarge(file)
	}
	return ParseString(file, string(data))
}

// ParseString is Parse over a document held as a string: the
// inventory's strings (names, descriptions, the tools' Raw trees) are
// slices of src itself, where Parse slices its one copy of data. It
// returns what Parse returns for the same text, errors included.
func ParseString(file, src string) (*engine.Inventory, error) {
	if len(src) > engine.MaxFileBytes {
		return nil, tooLarge(file)
	}
	// An inventory is its servers: a large one has their list read on
	// every CPU (the same tree, the same errors as jsonv.Parse).
	root, err := jsonv.ParseSplitString(src, "servers")
	if err != nil {
		return nil, engine.SyntaxError(file, err)
	}
	p := invParser{file: file, lines: jsonv.NewLinesString(src)}
	inv, err := p.inventory(&root)
	if err != nil {
		return nil, err
	}
	return inv, nil
}

func tooLarge(file string) error {
	return &engine.InputError{File: file, Msg: fmt.Sprintf("file is larger than the %d MiB cap", engine.MaxFileBytes>>20)}
}

type invParser struct {
	file  string
	lines *jsonv.Lines
}

func (p *invParser) errAt(v *jsonv.Value, path, format string, args ...any) error {
	line, col := p.lines.Position(v.Off)
	return &engine.InputError{File: p.file, Path: path, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *invParser) inventory(root *jsonv.Value) (*engine.Inventory, error) {
	if root.Kind != jsonv.Object {
		return nil, p.errAt(root, "$", "inventory root is not an object (got %s)", root.Kind)
	}
	sv, ok := root.Get("servers")
	if !ok {
		return nil, p.errAt(root, "$", "inventory has no 'servers' list")
	}
	if sv.Kind != jsonv.Array {
		return nil, p.errAt(sv, "$.servers", "inventory has no 'servers' list ('servers' is %s)", sv.Kind)
	}
	inv := &engine.Inventory{File: p.file}
	servers, errs := p.servers(sv.Items)
	seen := map[string]string{}
	for i, s := range servers {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if prev, dup := seen[s.Name]; dup {
			return nil, p.errAt(&sv.Items[i], s.Path+".name", "server name %s is already used by %s", q(s.Name), prev)
		}
		seen[s.Name] = s.Path
		inv.Servers = append(inv.Servers, s)
	}
	// Keys are "server/tool", and both names may hold a '/' (server names
	// are keys of client configs, "name@/project/dir"; a hostile server may
	// name a tool anything). Only a key two tools share is ambiguous, and
	// only that is refused: rejecting every odd tool name would let a
	// server make its whole inventory unscannable.
	n := 0
	for _, s := range inv.Servers {
		n += len(s.Tools)
	}
	keys := make(map[string]*engine.Tool, n)
	for _, s := range inv.Servers {
		for _, t := range s.Tools {
			k := t.Key()
			if prev, dup := keys[k]; dup {
				return nil, p.errAt(t.Raw, t.Path+".name", "key %s is ambiguous: server %s tool %s and server %s tool %s", q(k), q(prev.Server), q(prev.Name), q(t.Server), q(t.Name))
			}
			keys[k] = t
		}
	}
	return inv, nil
}

// name reads a required, non-blank name. what is "server" or
// "tool in server 'x'", as the original's messages say.
func (p *invParser) name(obj *jsonv.Value, path, what string) (string, error) {
	nv, ok := obj.Get("name")
	if !ok {
		return "", p.errAt(obj, path, "%s has no name", what)
	}
	if nv.Kind != jsonv.String {
		return "", p.errAt(nv, path+".name", "%s has no name (name is %s, not a string)", what, nv.Kind)
	}
	if canon.Strip(nv.Str) == "" {
		return "", p.errAt(nv, path+".name", "%s has no name (name is empty)", what)
	}
	return nv.Str, nil
}

// q quotes a name from the input as the original does ('name'), with
// anything invisible or controlling shown escaped.
func q(s string) string { return "'" + sanitize.Text(s) + "'" }

func (p *invParser) optString(obj *jsonv.Value, path, key string) (string, bool, error) {
	v, ok := obj.Get(key)
	if !ok {
		return "", false, nil
	}
	if v.Kind != jsonv.String {
		return "", false, p.errAt(v, path+"."+key, "'%s' must be a string, got %s", key, v.Kind)
	}
	return v.Str, true, nil
}

func (p *invParser) server(v *jsonv.Value, path string) (*engine.Server, error) {
	if v.Kind != jsonv.Object {
		return nil, p.errAt(v, path, "server entry is not an object (got %s)", v.Kind)
	}
	name, err := p.name(v, path, "server")
	if err != nil {
		return nil, err
	}
	line, _ := p.lines.Position(v.Off)
	s := &engine.Server{Name: name, Path: path, Line: line}
	if tv, ok := v.Get("transport"); ok && tv.Kind != jsonv.String {
		return nil, p.errAt(tv, path+".transport", "server %s transport is not a string (got %s)", q(name), tv.Kind)
	}
	tr, has, err := p.optString(v, path, "transport")
	if err != nil {
		return nil, err
	}
	if !has || tr == "" {
		tr = "unknown"
	}
	s.Transport = tr
	if s.Command, _, err = p.optString(v, path, "command"); err != nil {
		return nil, err
	}
	if s.URL, _, err = p.optString(v, path, "url"); err != nil {
		return nil, err
	}
	if av, ok := v.Get("args"); ok {
		if av.Kind != jsonv.Array {
			return nil, p.errAt(av, path+".args", "'args' must be a list of strings, got %s", av.Kind)
		}
		s.Args = []string{}
		for i := range av.Items {
			if av.Items[i].Kind != jsonv.String {
				return nil, p.errAt(&av.Items[i], fmt.Sprintf("%s.args[%d]", path, i), "'args' must be a list of strings, got %s", av.Items[i].Kind)
			}
			s.Args = append(s.Args, av.Items[i].Str)
		}
	}
	// env_keys and header_keys record key names without values, as a
	// captured inventory does: the launch config is compared by keys.
	for _, kf := range []struct {
		key string
		dst *[]string
	}{{"env_keys", &s.EnvKeys}, {"header_keys", &s.HeaderKeys}} {
		kv, ok := v.Get(kf.key)
		if !ok {
			continue
		}
		if kv.Kind != jsonv.Array {
			return nil, p.errAt(kv, path+"."+kf.key, "'%s' must be a list of strings, got %s", kf.key, kv.Kind)
		}
		for i := range kv.Items {
			if kv.Items[i].Kind != jsonv.String {
				return nil, p.errAt(&kv.Items[i], fmt.Sprintf("%s.%s[%d]", path, kf.key, i), "'%s' must be a list of strings, got %s", kf.key, kv.Items[i].Kind)
			}
			*kf.dst = append(*kf.dst, kv.Items[i].Str)
		}
		sort.Strings(*kf.dst)
	}
	// launch_fields: the client launch fields (cwd, trust, headersHelper
	// ...) as a captured inventory records them, redacted.
	if lv, ok := v.Get("launch_fields"); ok {
		if lv.Kind != jsonv.Object {
			return nil, p.errAt(lv, path+".launch_fields", "'launch_fields' must be an object of strings, got %s", lv.Kind)
		}
		for _, m := range lv.Members {
			if !slices.Contains(launch.ExtraFields, m.Key) {
				return nil, p.errAt(lv, path+".launch_fields"+keyPath(m.Key), "unknown launch field %s", q(m.Key))
			}
			if m.Value.Kind != jsonv.String {
				return nil, p.errAt(&m.Value, path+".launch_fields"+keyPath(m.Key), "launch field values must be strings, got %s", m.Value.Kind)
			}
			if s.Extra == nil {
				s.Extra = map[string]string{}
			}
			s.Extra[m.Key] = m.Value.Str
		}
	}
	if _, both := v.Get("env_keys"); both {
		if _, has := v.Get("env"); has {
			return nil, p.errAt(v, path, "server %s has both 'env' and 'env_keys'", q(name))
		}
	}
	if ev, ok := v.Get("env"); ok {
		if ev.Kind != jsonv.Object {
			return nil, p.errAt(ev, path+".env", "'env' must be an object of strings, got %s", ev.Kind)
		}
		s.Env = map[string]string{}
		for _, m := range ev.Members {
			if m.Value.Kind != jsonv.String {
				// The value is never echoed: it may be a secret.
				return nil, p.errAt(&m.Value, path+".env"+keyPath(m.Key), "env value must be a string, got %s", m.Value.Kind)
			}
			s.Env[m.Key] = m.Value.Str
			s.EnvKeys = append(s.EnvKeys, m.Key)
		}
		sort.Strings(s.EnvKeys)
	}
	iv, hasInstr := v.Get("instructions")
	if hasInstr && iv.Kind != jsonv.String {
		return nil, p.errAt(iv, path+".instructions", "server %s instructions is not a string (got %s)", q(name), iv.Kind)
	}
	tv, ok := v.Get("tools")
	if !ok {
		// The original reads a missing list as empty.
		return s, p.instructions(s, iv, path)
	}
	if tv.Kind != jsonv.Array {
		return nil, p.errAt(tv, path+".tools", "server %s tools is not a list (got %s)", q(name), tv.Kind)
	}
	seen := map[string]string{}
	for i := range tv.Items {
		tpath := fmt.Sprintf("%s.tools[%d]", path, i)
		t, err := p.tool(&tv.Items[i], tpath, name)
		if err != nil {
			return nil, err
		}
		k := canon.Strip(t.Name)
		if prev, dup := seen[k]; dup {
			return nil, p.errAt(&tv.Items[i], tpath+".name", "server %s lists tool %s twice (first at %s)", q(name), q(k), prev)
		}
		seen[k] = tpath
		s.Tools = append(s.Tools, t)
	}
	if iv != nil {
		if prev, dup := seen[canon.Strip(engine.InstructionsTool(name))]; dup {
			return nil, p.errAt(iv, path+".instructions", "server %s has instructions and a tool named like them (%s)", q(name), prev)
		}
	}
	return s, p.instructions(s, iv, path)
}

// instructions records a server's instructions (iv, nil when absent) and
// adds the tool entry that stands for them: {"name": InstructionsTool,
// "description": the text}. Blank instructions add nothing.
func (p *invParser) instructions(s *engine.Server, iv *jsonv.Value, path string) error {
	if iv == nil || canon.Strip(iv.Str) == "" {
		return nil
	}
	s.Instructions = iv.Str
	name := engine.InstructionsTool(s.Name)
	raw := &jsonv.Value{Kind: jsonv.Object, Off: iv.Off, Members: []jsonv.Member{
		{Key: "name", KeyOff: iv.Off, Value: jsonv.Value{Kind: jsonv.String, Str: name, Off: iv.Off}},
		{Key: "description", KeyOff: iv.Off, Value: *iv},
	}}
	line, _ := p.lines.Position(iv.Off)
	s.Tools = append(s.Tools, &engine.Tool{Server: s.Name, Name: name, Raw: raw, Path: path + ".instructions", Line: line})
	return nil
}

func keyPath(k string) string {
	var b strings.Builder
	jsonv.AppendKey(&b, k)
	return b.String()
}

func (p *invParser) tool(v *jsonv.Value, path, server string) (*engine.Tool, error) {
	if v.Kind != jsonv.Object {
		return nil, p.errAt(v, path, "tool in server %s is not an object (got %s)", q(server), v.Kind)
	}
	name, err := p.name(v, path, "tool in server "+q(server))
	if err != nil {
		return nil, err
	}

	for _, f := range []string{"description", "title"} {
		if fv, ok := v.Get(f); ok && fv.Kind != jsonv.String {
			return nil, p.errAt(fv, path+"."+f, "tool %s %s is not a string (got %s)", q(name), f, fv.Kind)
		}
	}
	for _, pair := range [][2]string{{"input_schema", "inputSchema"}, {"output_schema", "outputSchema"}} {
		a, hasA := v.Get(pair[0])
		b, hasB := v.Get(pair[1])
		if hasA && hasB {
			return nil, p.errAt(b, path+"."+pair[1], "both '%s' and '%s' are present; a reader could take either", pair[0], pair[1])
		}
		if hasA && a.Kind != jsonv.Object {
			return nil, p.errAt(a, path+"."+pair[0], "tool %s %s is not an object (got %s)", q(name), pair[0], a.Kind)
		}
		if hasB && b.Kind != jsonv.Object {
			return nil, p.errAt(b, path+"."+pair[1], "tool %s %s is not an object (got %s)", q(name), pair[0], b.Kind)
		}
	}
	if a, ok := v.Get("annotations"); ok && a.Kind != jsonv.Object {
		return nil, p.errAt(a, path+".annotations", "tool %s annotations is not an object (got %s)", q(name), a.Kind)
	}
	line, _ := p.lines.Position(v.Off)
	return &engine.Tool{Server: server, Name: name, Raw: v, Path: path, Line: line}, nil
}
