package sources

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// Cursor layout caps.
const (
	maxCursorMetadata = 1 << 20
	maxCursorTool     = 4 << 20
	maxCursorServers  = 1000
)

// The fields a Cursor tool file may have. The layout is community
// evidence only (docs/sources.md): anything else makes the folder a
// Mismatch rather than a guess.
var cursorToolFields = map[string]bool{
	"name": true, "title": true, "description": true, "arguments": true,
	"inputSchema": true, "outputSchema": true, "annotations": true,
	"icons": true, "_meta": true, "execution": true,
}

// ParseCursorTool reads one Cursor tools/<tool>.json, {"name",
// "description", "arguments": <input schema>, ...}, and returns it as an
// MCP Tool: "arguments" becomes "inputSchema". An unknown field, a
// missing name or both "arguments" and "inputSchema" is an error.
func ParseCursorTool(file string, data []byte) (jsonv.Value, error) {
	if len(data) > maxCursorTool {
		return jsonv.Value{}, &engine.InputError{File: file, Msg: fmt.Sprintf("larger than the %d MiB cap for a tool file", maxCursorTool>>20)}
	}
	v, err := parseDoc(file, data)
	if err != nil {
		return jsonv.Value{}, err
	}
	if v.Kind != jsonv.Object {
		return jsonv.Value{}, docErr(file, data, &v, "$", "tool file is not an object (got %s)", v.Kind)
	}
	for i := range v.Members {
		m := &v.Members[i]
		if !cursorToolFields[m.Key] {
			return jsonv.Value{}, docErr(file, data, &m.Value, "$"+keyPath(m.Key), "unexpected field %s: not Cursor's known tool layout", q(m.Key))
		}
	}
	if n, ok := str(&v, "name"); !ok || strings.TrimSpace(n) == "" {
		return jsonv.Value{}, docErr(file, data, &v, "$.name", "tool has no name")
	}
	for _, k := range []string{"description", "title"} {
		if fv, ok := v.Get(k); ok && fv.Kind != jsonv.String {
			return jsonv.Value{}, docErr(file, data, fv, "$."+k, "%s is not a string (got %s)", k, fv.Kind)
		}
	}
	a, hasA := v.Get("arguments")
	_, hasI := v.Get("inputSchema")
	if hasA && hasI {
		return jsonv.Value{}, docErr(file, data, a, "$.arguments", "both 'arguments' and 'inputSchema' are present")
	}
	if hasA && a.Kind != jsonv.Object {
		return jsonv.Value{}, docErr(file, data, a, "$.arguments", "arguments is not an object (got %s)", a.Kind)
	}
	out := v
	out.Members = append([]jsonv.Member(nil), v.Members...)
	for i := range out.Members {
		if out.Members[i].Key == "arguments" {
			out.Members[i].Key = "inputSchema"
		}
	}
	return out, nil
}

func keyPath(k string) string {
	var b strings.Builder
	jsonv.AppendKey(&b, k)
	return b.String()
}

// ParseCursorMCPs reads a Cursor mcps/ folder (dir inside fsys): one
// folder per server holding SERVER_METADATA.json ({"serverIdentifier",
// "serverName"}), tools/*.json and, optionally, INSTRUCTIONS.md. A folder
// that does not have that shape is returned as a Mismatch, with the
// reason, and its server is left out; symbolic links and anything that is
// not a regular file or folder are never followed or read.
//
// A server's name is its serverName (the name the user configured),
// else its serverIdentifier; a name two folders share falls back to the
// serverIdentifier. err is set only when dir itself cannot be listed.
func ParseCursorMCPs(fsys fs.FS, dir string) ([]Server, []Mismatch, error) {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, nil, err
	}
	if len(ents) > maxCursorServers {
		return nil, []Mismatch{{Path: dir, Reason: fmt.Sprintf("more than %d entries", maxCursorServers)}}, nil
	}
	type found struct {
		id string
		s  Server
	}
	var servers []found
	var bad []Mismatch
	for _, e := range ents {
		p := path.Join(dir, e.Name())
		if !e.IsDir() || e.Type()&fs.ModeSymlink != 0 {
			bad = append(bad, Mismatch{Path: p, Reason: "not a server folder (a file or a link)"})
			continue
		}
		id, s, why := cursorServer(fsys, p)
		if why != "" {
			bad = append(bad, Mismatch{Path: p, Reason: why})
			continue
		}
		servers = append(servers, found{id, s})
	}
	names := map[string]int{}
	for _, f := range servers {
		names[f.s.Name]++
	}
	out := make([]Server, 0, len(servers))
	used := map[string]bool{}
	for _, f := range servers {
		if names[f.s.Name] > 1 {
			f.s.Name = f.id
		}
		if used[f.s.Name] {
			bad = append(bad, Mismatch{Path: dir, Reason: fmt.Sprintf("two folders name server %s", q(f.s.Name))})
			continue
		}
		used[f.s.Name] = true
		out = append(out, f.s)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out, bad, nil
}

// readRegular reads a regular file of at most max bytes.
func readRegular(fsys fs.FS, name string, max int64) ([]byte, string) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, "cannot stat " + path.Base(name)
	}
	if !fi.Mode().IsRegular() {
		return nil, path.Base(name) + " is not a regular file"
	}
	if fi.Size() > max {
		return nil, fmt.Sprintf("%s is larger than %d KiB", path.Base(name), max>>10)
	}
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, "cannot read " + path.Base(name)
	}
	if int64(len(b)) > max {
		return nil, fmt.Sprintf("%s is larger than %d KiB", path.Base(name), max>>10)
	}
	return b, ""
}

// cursorServer reads one server folder; why says what does not match.
func cursorServer(fsys fs.FS, dir string) (string, Server, string) {
	metaPath := path.Join(dir, "SERVER_METADATA.json")
	data, why := readRegular(fsys, metaPath, maxCursorMetadata)
	if why != "" {
		return "", Server{}, why
	}
	meta, err := parseDoc(metaPath, data)
	if err != nil {
		return "", Server{}, err.Error()
	}
	id, ok := str(&meta, "serverIdentifier")
	if !ok || strings.TrimSpace(id) == "" {
		return "", Server{}, "SERVER_METADATA.json has no serverIdentifier string"
	}
	name := id
	if nv, has := meta.Get("serverName"); has {
		if nv.Kind != jsonv.String || strings.TrimSpace(nv.Str) == "" {
			return "", Server{}, "SERVER_METADATA.json serverName is not a non-empty string"
		}
		name = nv.Str
	}
	toolsDir := path.Join(dir, "tools")
	ents, err := fs.ReadDir(fsys, toolsDir)
	if err != nil {
		return "", Server{}, "no tools/ folder"
	}
	if len(ents) > MaxTools {
		return "", Server{}, fmt.Sprintf("more than %d tool files", MaxTools)
	}
	var tools []jsonv.Value
	for _, e := range ents {
		p := path.Join(toolsDir, e.Name())
		if e.Type()&fs.ModeSymlink != 0 || !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") {
			return "", Server{}, "tools/" + e.Name() + " is not a regular .json file"
		}
		b, why := readRegular(fsys, p, maxCursorTool)
		if why != "" {
			return "", Server{}, why
		}
		t, err := ParseCursorTool(p, b)
		if err != nil {
			return "", Server{}, err.Error()
		}
		tools = append(tools, t)
	}
	if err := checkTools(toolsDir, nil, tools, "tools"); err != nil {
		return "", Server{}, err.Error()
	}
	s := Server{Name: name, Client: ClientCursor, Tools: tools}
	instrPath := path.Join(dir, "INSTRUCTIONS.md")
	if _, err := fs.Stat(fsys, instrPath); err == nil {
		b, why := readRegular(fsys, instrPath, MaxInstructions)
		if why != "" {
			return "", Server{}, why
		}
		s.Instructions = string(b)
	}
	return id, s, ""
}
