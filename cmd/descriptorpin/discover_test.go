package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/service"
)

// fakeHome lays out every client's user-level config under a temporary
// home for the current OS, from the parser's fixtures.
func fakeHome(t *testing.T) (home string, env []string, want map[string]string) {
	t.Helper()
	home = t.TempDir()
	fix := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "..", "engine", "clientconfig", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var code, appdata string // VS Code user dir and the app-data root
	switch runtime.GOOS {
	case "darwin":
		appdata = filepath.Join(home, "Library", "Application Support")
		code = filepath.Join(appdata, "Code", "User")
	case "windows":
		appdata = filepath.Join(home, "AppData", "Roaming")
		code = filepath.Join(appdata, "Code", "User")
	default:
		appdata = filepath.Join(home, ".config")
		code = filepath.Join(appdata, "Code", "User")
	}
	want = map[string]string{
		filepath.Join(appdata, "Claude", "claude_desktop_config.json"):                                        "claude_desktop_config.json",
		filepath.Join(home, ".claude.json"):                                                                   "claude.json",
		filepath.Join(home, ".cursor", "mcp.json"):                                                            "cursor_mcp.json",
		filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"):                                        "windsurf_mcp_config.json",
		filepath.Join(code, "mcp.json"):                                                                       "vscode_mcp.jsonc",
		filepath.Join(code, "settings.json"):                                                                  "vscode_settings_nested.json",
		filepath.Join(home, ".copilot", "mcp-config.json"):                                                    "copilot_mcp-config.json",
		filepath.Join(code, "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json"): "cline_mcp_settings.json",
		filepath.Join(code, "globalStorage", "rooveterinaryinc.roo-cline", "settings", "mcp_settings.json"):   "roo_mcp_settings.json",
		filepath.Join(home, ".continue", "config.yaml"):                                                       "continue_config.yaml",
		filepath.Join(home, ".gemini", "settings.json"):                                                       "gemini_settings.json",
		filepath.Join(home, ".codex", "config.toml"):                                                          "codex_config.toml",
		filepath.Join(home, ".kiro", "settings", "mcp.json"):                                                  "kiro_mcp.json",
		filepath.Join(home, ".aws", "amazonq", "mcp.json"):                                                    "amazonq_mcp.json",
	}
	if runtime.GOOS != "windows" {
		want[filepath.Join(home, ".config", "zed", "settings.json")] = "zed_settings.json"
		want[filepath.Join(home, ".config", "opencode", "opencode.json")] = "opencode.json"
	}
	for path, name := range want {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, fix(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env = []string{"HOME=" + home, "USERPROFILE=" + home, "APPDATA=" + filepath.Join(home, "AppData", "Roaming"),
		"LOCALAPPDATA=" + filepath.Join(home, "AppData", "Local"), "PATH=" + os.Getenv("PATH")}
	return home, env, want
}

func TestDiscoverFindsEveryClient(t *testing.T) {
	_, env, want := fakeHome(t)
	cmd := exec.Command(filepath.Join(binDir, "descriptorpin"), "discover", "--format", "json")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("discover: %v\n%s", err, out)
	}
	var res struct {
		Configs []service.Discovered `json:"configs"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	got := map[string]service.Discovered{}
	for _, d := range res.Configs {
		got[d.Path] = d
	}
	for path, fixture := range want {
		d, ok := got[path]
		if !ok {
			t.Errorf("discover did not find %s (%s)", path, fixture)
			continue
		}
		if d.Status != "ok" || d.Servers == 0 {
			t.Errorf("%s: status %q, %d servers", path, d.Status, d.Servers)
		}
	}
	// The text form prints each path.
	cmd = exec.Command(filepath.Join(binDir, "descriptorpin"), "discover")
	cmd.Env = env
	text, _ := cmd.Output()
	for path := range want {
		if !strings.Contains(string(text), path) {
			t.Errorf("text output does not print %s", path)
		}
	}
}

func TestDiscoverSaysWhereItLookedWhenNothingIsFound(t *testing.T) {
	home := t.TempDir()
	cmd := exec.Command(filepath.Join(binDir, "descriptorpin"), "discover")
	cmd.Env = []string{"HOME=" + home, "USERPROFILE=" + home, "PATH=" + os.Getenv("PATH")}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "no MCP client config found; checked") || !strings.Contains(string(out), filepath.Join(home, ".cursor", "mcp.json")) {
		t.Fatalf("output:\n%s", out)
	}
}

func TestWatchDiscoveredClientConfig(t *testing.T) {
	home, env, _ := fakeHome(t)
	s := newSvc(t, nil, "")
	// Replace the config: discovery on, no explicit targets.
	cfg := strings.Replace(readStateFile(t, s.cfg), "discover: false", "discover: true", 1)
	cfg = strings.Replace(cfg, "targets:\n", "", 1)
	if err := os.WriteFile(s.cfg, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	s.env = env
	s.start()
	s.waitAction("pin-created", "")
	cursor := filepath.Join(home, ".cursor", "mcp.json")
	data, err := os.ReadFile(cursor)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	servers := m["mcpServers"].(map[string]any)
	var name string
	for n, v := range servers {
		if _, ok := v.(map[string]any)["args"]; ok {
			name = n
			break
		}
	}
	if name == "" {
		t.Fatal("the cursor fixture has no server with args")
	}
	entry := servers[name].(map[string]any)
	entry["args"] = append(entry["args"].([]any), "--extra")
	out, _ := json.MarshalIndent(m, "", "  ")
	tmp := cursor + ".tmp"
	os.WriteFile(tmp, out, 0o644)
	os.Rename(tmp, cursor)
	ev := s.waitAction("finding-opened", "LAUNCH")
	if ev.str("descriptorpin.finding.subject") != "cursor:"+name || !strings.Contains(ev.str("message"), "args") {
		t.Fatalf("got %v: %s", ev, ev.str("message"))
	}
	s.stop()
}
