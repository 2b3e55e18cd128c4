package sources

import (
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// ParseMCPB reads a Claude Desktop extension's manifest.json (the MCPB
// format, modelcontextprotocol/mcpb MANIFEST.md). It is what the publisher
// declared, not what the server sends: compare the two when both are
// known. The tools are the full static tools/list response under
// _meta["com.microsoft.windows"].static_responses["tools/list"] when the
// manifest has one, else the manifest's tools[{name, description}]; the
// instructions are the static initialize response's. id names the server
// (the extension's folder under "Claude Extensions"); when empty the
// manifest's name does.
func ParseMCPB(file, id string, data []byte) (Server, error) {
	root, err := parseDoc(file, data)
	if err != nil {
		return Server{}, err
	}
	if root.Kind != jsonv.Object {
		return Server{}, docErr(file, data, &root, "$", "manifest is not an object (got %s)", root.Kind)
	}
	name := id
	if name == "" {
		n, ok := str(&root, "name")
		if !ok || n == "" {
			return Server{}, docErr(file, data, &root, "$.name", "manifest has no name")
		}
		name = n
	}
	s := Server{Name: name, Client: ClientClaudeDesktop}
	path := "$.tools"
	tools, has := root.Get("tools")
	if static, ok := staticResponses(&root); ok {
		if tl, ok := static.Get("tools/list"); ok {
			if tl.Kind != jsonv.Object {
				return Server{}, docErr(file, data, tl, `$._meta["com.microsoft.windows"].static_responses["tools/list"]`, "static tools/list is not an object (got %s)", tl.Kind)
			}
			if t, ok := tl.Get("tools"); ok {
				tools, has, path = t, true, `$._meta["com.microsoft.windows"].static_responses["tools/list"].tools`
			}
		}
		if in, ok := static.Get("initialize"); ok && in.Kind == jsonv.Object {
			if iv, ok := in.Get("instructions"); ok {
				if iv.Kind != jsonv.String {
					return Server{}, docErr(file, data, iv, `$._meta["com.microsoft.windows"].static_responses.initialize.instructions`, "instructions is not a string (got %s)", iv.Kind)
				}
				s.Instructions = clipInstructions(iv.Str)
			}
		}
	}
	if !has {
		return s, nil
	}
	if tools.Kind != jsonv.Array {
		return Server{}, docErr(file, data, tools, path, "tools is not a list (got %s)", tools.Kind)
	}
	if err := checkTools(file, data, tools.Items, path); err != nil {
		return Server{}, err
	}
	s.Tools = tools.Items
	return s, nil
}

func staticResponses(root *jsonv.Value) (*jsonv.Value, bool) {
	meta, ok := root.Get("_meta")
	if !ok || meta.Kind != jsonv.Object {
		return nil, false
	}
	win, ok := meta.Get("com.microsoft.windows")
	if !ok || win.Kind != jsonv.Object {
		return nil, false
	}
	sr, ok := win.Get("static_responses")
	if !ok || sr.Kind != jsonv.Object {
		return nil, false
	}
	return sr, true
}
