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
