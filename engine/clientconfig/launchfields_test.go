package clientconfig

import (
	"strings"
	"testing"
)

// Every client dialect reads the launch fields, with their types checked.
func TestLaunchFieldsAreReadForEveryDialect(t *testing.T) {
	for name, doc := range map[string]string{
		".claude.json":            `{"mcpServers": {"s": {"type": "http", "url": "https://x.test/mcp", "headersHelper": "h"}}}`,
		".vscode/mcp.json":        `{"servers": {"s": {"command": "node", "envFile": "e", "cwd": "d"}}}`,
		".gemini/settings.json":   `{"mcpServers": {"s": {"command": "node", "trust": true, "cwd": "d"}}}`,
		"cline_mcp_settings.json": `{"mcpServers": {"s": {"command": "node", "autoApprove": ["t"]}}}`,
		".codex/config.toml":      "[mcp_servers.s]\ncommand = \"node\"\ncwd = \"d\"\nenv_vars = [\"TOKEN\"]\n",
		".continue/config.yaml":   "mcpServers:\n  - name: s\n    command: node\n    cwd: d\n",
	} {
		inv, _, err := Parse(name, []byte(doc), FormatAuto)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(inv.Servers) != 1 || len(inv.Servers[0].Extra) == 0 {
			t.Errorf("%s: no launch fields read: %+v", name, inv.Servers)
		}
	}
	if _, _, err := Parse(".gemini/settings.json", []byte(`{"mcpServers": {"s": {"command": "node", "trust": "yes"}}}`), FormatAuto); err == nil || !strings.Contains(err.Error(), "'trust' must be true or false") {
		t.Errorf("a string trust: %v", err)
	}
}

// Issue 17: a Cursor entry with only a url is launched the way Cursor
// connects to it (SSE for an /sse endpoint, Streamable HTTP otherwise),
// not "unknown".
func TestCursorURLTransportIsInferredAsCursorDoes(t *testing.T) {
	for url, want := range map[string]string{
		"https://mcp.example.com/mcp":              "streamable-http",
		"https://mcp.example.com/":                 "streamable-http",
		"https://mcp.example.com/sse":              "sse",
		"https://mcp.example.com/SSE/?token=x#top": "sse",
		"http://localhost:3000/sse?key=1":          "sse",
		"https://mcp.example.com/sse/messages":     "streamable-http",
		"wss://mcp.example.com/ws":                 "ws",
	} {
		doc := `{"mcpServers": {"a": {"url": "` + url + `"}}}`
		inv, _, err := ParseWith("/home/u/.cursor/mcp.json", []byte(doc), Options{Client: "cursor", Home: "/home/u"})
		if err != nil {
			t.Fatal(err)
		}
		if got := inv.Servers[0].Transport; got != want {
			t.Errorf("%s: transport %q, want %q", url, got, want)
		}
	}
	// Another client with the same entry still says it does not know.
	inv, _, err := ParseWith("/home/u/.codeium/windsurf/mcp_config.json", []byte(`{"mcpServers": {"a": {"serverUrl": "https://mcp.example.com/mcp"}}}`), Options{Client: "windsurf", Home: "/home/u"})
	if err == nil && inv.Servers[0].Transport != "unknown" {
		t.Errorf("windsurf: transport %q, want unknown", inv.Servers[0].Transport)
	}
}
