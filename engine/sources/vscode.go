package sources

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// VSCodeCacheKey is the ItemTable key VS Code stores its tool cache under
// (McpServerMetadataCache in src/vs/workbench/contrib/mcp/common/mcpServer.ts).
const VSCodeCacheKey = "mcpToolCache"

// VSCodeScope says which state.vscdb a cache value came from.
type VSCodeScope struct {
	Client string // ClientVSCode or ClientVSCodeInsiders
	// ProjectDir is the workspace folder of a workspaceStorage database
	// (from its workspace.json, see ParseVSCodeWorkspace); "" for a
	// profile's globalStorage database.
	ProjectDir string
}

// Fields VS Code adds to each stored MCP Tool (ValidatedMcpTool); they are
// VS Code's bookkeeping, not what the server sent, and are dropped so a
// pin taken from VS Code matches one taken from any other source.
var vscodeToolExtras = []string{"serverToolName", "visibility", "_icons", "uiResourceUri"}

// ParseVSCodeCache reads the mcpToolCache value of one state.vscdb:
//
//	{"extensionServers": [...], "serverTools": [[definitionId, entry], ...]}
//
// where entry is {serverName, serverInstructions, serverIcons, nonce,
// trustedAtNonce, tools, prompts, capabilities}. Each definitionId is
// mapped to the name the client config uses (see VSCodeServerName). Each
// tool is restored to the MCP Tool the server sent: the name is
// serverToolName (VS Code replaces characters outside [a-z0-9_-] in
// name), and VS Code's own fields are dropped. VS Code's other
// normalisations (a missing description stored as "<empty>", a missing
// inputSchema.properties stored as {}, tools with invalid schemas
// dropped) cannot be undone and are documented in docs/sources.md.
//
// Servers are returned sorted by name; entries with no tools are skipped.
// Any shape problem is an *engine.InputError naming file and JSON path.
func ParseVSCodeCache(file string, value []byte, scope VSCodeScope) ([]Server, error) {
	root, err := parseDoc(file, value)
	if err != nil {
		return nil, err
	}
	if root.Kind != jsonv.Object {
		return nil, docErr(file, value, &root, "$", "tool cache is not an object (got %s)", root.Kind)
	}
	st, ok := root.Get("serverTools")
	if !ok {
		return nil, docErr(file, value, &root, "$", "tool cache has no 'serverTools' list")
	}
	if st.Kind != jsonv.Array {
		return nil, docErr(file, value, st, "$.serverTools", "'serverTools' is not a list (got %s)", st.Kind)
	}
	type entry struct {
		id, name string
		config   bool // a definition from a VS Code mcp.json / settings
		srv      Server
	}
	var entries []entry
	for i := range st.Items {
		pair := &st.Items[i]
		path := fmt.Sprintf("$.serverTools[%d]", i)
		if pair.Kind != jsonv.Array || len(pair.Items) != 2 || pair.Items[0].Kind != jsonv.String {
			return nil, docErr(file, value, pair, path, "entry is not a [definitionId, entry] pair")
		}
		id := pair.Items[0].Str
		e := &pair.Items[1]
		if e.Kind != jsonv.Object {
			return nil, docErr(file, value, e, path+"[1]", "entry for %s is not an object (got %s)", q(id), e.Kind)
		}
		tv, ok := e.Get("tools")
		if !ok || tv.Kind == jsonv.Null {
			continue
		}
		if tv.Kind != jsonv.Array {
			return nil, docErr(file, value, tv, path+"[1].tools", "tools of %s is not a list (got %s)", q(id), tv.Kind)
		}
		if len(tv.Items) == 0 {
			continue
		}
		tools := make([]jsonv.Value, len(tv.Items))
		for j := range tv.Items {
			t := tv.Items[j]
			if t.Kind == jsonv.Object {
				if stn, ok := t.Get("serverToolName"); ok {
					if stn.Kind != jsonv.String {
						return nil, docErr(file, value, stn, fmt.Sprintf("%s[1].tools[%d].serverToolName", path, j), "serverToolName is not a string (got %s)", stn.Kind)
					}
					t = withName(t, stn.Str)
				}
				t = without(t, vscodeToolExtras...)
			}
			tools[j] = t
		}
		if err := checkTools(file, value, tools, path+"[1].tools"); err != nil {
			return nil, err
		}
		instr := ""
		if iv, ok := e.Get("serverInstructions"); ok && iv.Kind != jsonv.Null {
			if iv.Kind != jsonv.String {
				return nil, docErr(file, value, iv, path+"[1].serverInstructions", "serverInstructions is not a string (got %s)", iv.Kind)
			}
			instr = clipInstructions(iv.Str)
		}
		name, config := VSCodeServerName(id, scope.ProjectDir)
		entries = append(entries, entry{id: id, name: name, config: config, srv: Server{
			Client: scope.Client, Instructions: instr, Tools: tools,
		}})
	}
	// Names from VS Code's own config win; a definition imported from
	// elsewhere whose name is taken keeps its definitionId.
	sort.SliceStable(entries, func(a, b int) bool { return entries[a].config && !entries[b].config })
	ids, names := map[string]bool{}, map[string]bool{}
	var out []Server
	for _, e := range entries {
		if ids[e.id] {
			return nil, &engine.InputError{File: file, Path: "$.serverTools", Msg: fmt.Sprintf("definition %s is listed twice", q(e.id))}
		}
		ids[e.id] = true
		name := e.name
		if names[name] {
			name = e.id
		}
		if names[name] {
			return nil, &engine.InputError{File: file, Path: "$.serverTools", Msg: fmt.Sprintf("two definitions map to server %s", q(name))}
		}
		names[name] = true
		e.srv.Name = name
		out = append(out, e.srv)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out, nil
}

// withName returns the object t with its "name" member set to name.
func withName(t jsonv.Value, name string) jsonv.Value {
	out := t
	out.Members = append([]jsonv.Member(nil), t.Members...)
	for i := range out.Members {
		if out.Members[i].Key == "name" {
			out.Members[i].Value = jsonv.Value{Kind: jsonv.String, Str: name, Off: out.Members[i].Value.Off}
			return out
		}
	}
	out.Members = append(out.Members, jsonv.Member{Key: "name", Value: jsonv.Value{Kind: jsonv.String, Str: name, Off: t.Off}})
	return out
}

// VSCodeServerName maps a VS Code server definitionId to the name the
// client config uses, and says whether the definition comes from VS
// Code's own MCP config. The id shapes are VS Code's
// (installedMcpServersDiscovery.ts, mcpConfigPathsService.ts,
// workspaceDotMcpDiscovery.ts, nativeMcpDiscoveryAdapters.ts):
//
//	mcp.config.usrlocal.<name>    user mcp.json / settings   -> name
//	mcp.config.usrremote.<name>   remote user config         -> name
//	mcp.config.unknown.<name>     config path not resolved   -> name
//	mcp.config.workspace.<name>   .code-workspace settings   -> name@project
//	mcp.config.wf<N>.<name>       <folder>/.vscode/mcp.json  -> name@project
//	workspace-dot-mcp.<N>.<name>  <folder>/.mcp.json         -> name@project
//	claude_desktop_config.<name>  imported Claude Desktop    -> name
//
// Any other id (extension-contributed servers, newer import adapters) is
// returned unchanged: there is no config name to map it to.
func VSCodeServerName(id, projectDir string) (name string, config bool) {
	const cfg = "mcp.config."
	if rest, ok := strings.CutPrefix(id, cfg); ok {
		pathID, n, ok := strings.Cut(rest, ".")
		if !ok || n == "" {
			return id, false
		}
		switch {
		case pathID == "usrlocal" || pathID == "usrremote" || pathID == "unknown":
			return n, true
		case pathID == "workspace" || isIndexed(pathID, "wf"):
			return Qualify(n, projectDir), true
		}
		return id, false
	}
	if rest, ok := strings.CutPrefix(id, "workspace-dot-mcp."); ok {
		idx, n, ok := strings.Cut(rest, ".")
		if ok && n != "" && isIndexed("x"+idx, "x") {
			return Qualify(n, projectDir), false
		}
		return id, false
	}
	if n, ok := strings.CutPrefix(id, "claude_desktop_config."); ok && n != "" {
		return n, false
	}
	return id, false
}

// isIndexed reports whether s is prefix followed by decimal digits.
func isIndexed(s, prefix string) bool {
	d, ok := strings.CutPrefix(s, prefix)
	if !ok || d == "" {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ParseVSCodeWorkspace reads a workspaceStorage/<id>/workspace.json,
// {"folder": "file:///…"} for a folder or {"workspace": "file:///….code-workspace"}
// for a multi-root workspace, and returns the local path it names (the
// folder, or the .code-workspace file). goos decides the path form: a
// Windows URI file:///c%3A/x becomes c:\x. A remote URI (vscode-remote://)
// has no local project directory and is an error.
func ParseVSCodeWorkspace(file string, data []byte, goos string) (string, error) {
	root, err := parseDoc(file, data)
	if err != nil {
		return "", err
	}
	if root.Kind != jsonv.Object {
		return "", docErr(file, data, &root, "$", "workspace.json is not an object (got %s)", root.Kind)
	}
	key := "folder"
	raw, ok := str(&root, key)
	if !ok {
		key = "workspace"
		if raw, ok = str(&root, key); !ok {
			return "", docErr(file, data, &root, "$", "workspace.json has no 'folder' or 'workspace' string")
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", docErr(file, data, &root, "$."+key, "%s is not a local file URI", key)
	}
	p := u.Path
	if goos == "windows" {
		p = strings.TrimPrefix(p, "/")
		p = strings.ReplaceAll(p, "/", `\`)
		if u.Host != "" { // UNC: file://server/share/x
			p = `\\` + u.Host + `\` + p
		}
	}
	return p, nil
}
