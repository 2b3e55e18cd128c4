package clientfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		home, goos string
		want       []string
	}{
		{"/home/me", "linux", []string{
			"vscode-tool-cache /home/me/.config/Code/User/globalStorage/state.vscdb",
			"vscode-tool-cache /home/me/.config/Code - Insiders/User/workspaceStorage/*/state.vscdb",
			"claude-desktop-log /home/me/.config/Claude/logs/mcp*.log (unverified)",
			"cursor-mcps /home/me/.cursor/projects/*/mcps (unverified)",
			"claude-code-log /home/me/.cache/claude-cli-nodejs/*/mcp-logs-*",
		}},
		{"/Users/me", "darwin", []string{
			"vscode-tool-cache /Users/me/Library/Application Support/Code/User/profiles/*/globalStorage/state.vscdb",
			"claude-desktop-log /Users/me/Library/Logs/Claude/mcp*.log",
			"mcpb-manifest /Users/me/Library/Application Support/Claude/Claude Extensions/*/manifest.json",
			"claude-code-log /Users/me/Library/Caches/claude-cli-nodejs/*/mcp-logs-*",
		}},
		{`C:\Users\me`, "windows", []string{
			`vscode-tool-cache C:\Users\me\AppData\Roaming\Code\User\globalStorage\state.vscdb`,
			`claude-desktop-log C:\Users\me\AppData\Roaming\Claude\logs\mcp*.log`,
			`claude-code-log C:\Users\me\AppData\Local\claude-cli-nodejs\Cache\*\mcp-logs-* (unverified)`,
		}},
	} {
		var got []string
		for _, l := range Locate(tc.home, tc.goos) {
			s := l.Kind + " " + l.Path
			if l.Unverified {
				s += " (unverified)"
			}
			got = append(got, s)
		}
		all := strings.Join(got, "\n")
		for _, w := range tc.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: missing %q in\n%s", tc.goos, w, all)
			}
		}
	}
	env := map[string]string{"XDG_CACHE_HOME": "/cache", "XDG_CONFIG_HOME": "relative/ignored"}
	got := LocateEnv("/home/me", "linux", func(k string) string { return env[k] })
	if got[0].Path != "/home/me/.config/Code/User/globalStorage/state.vscdb" || got[len(got)-1].Path != "/cache/claude-cli-nodejs/*/mcp-logs-*" {
		t.Errorf("env: %+v", got)
	}
}

func TestExpand(t *testing.T) {
	home := t.TempDir()
	db := filepath.Join(home, ".config", "Code", "User", "workspaceStorage", "abc", "state.vscdb")
	os.MkdirAll(filepath.Dir(db), 0o700)
	os.WriteFile(db, nil, 0o600)
	var found []string
	for _, l := range Locate(home, "linux") {
		found = append(found, Expand(l)...)
	}
	if len(found) != 1 || found[0] != db {
		t.Fatalf("%v", found)
	}
}
