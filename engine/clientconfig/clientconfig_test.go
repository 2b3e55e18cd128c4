package clientconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
)

// srv is what a test asserts about one server.
type srv struct {
	Name, Transport, Command string
	Args                     []string
	URL                      string
	EnvKeys, HeaderKeys      []string
	Client, Scope            string
	Disabled                 bool
	Path                     string
	Line                     int
}

func (s srv) String() string {
	type plain srv // no String method
	return fmt.Sprintf("%+v", plain(s))
}

func project(s *engine.Server) srv {
	return srv{Name: s.Name, Transport: s.Transport, Command: s.Command, Args: s.Args, URL: s.URL,
		EnvKeys: s.EnvKeys, HeaderKeys: s.HeaderKeys, Client: s.Client, Scope: s.Scope,
		Disabled: s.Disabled, Path: s.Path, Line: s.Line}
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func l(s ...string) []string { return s }

func TestParseClientFormats(t *testing.T) {
	tests := []struct {
		name    string
		fixture string
		as      string // the file name Parse sees
		opts    Options
		format  Format
		want    []srv
	}{
		{
			name: "claude desktop stdio servers with env", fixture: "claude_desktop_config.json",
			as: "/Users/u/Library/Application Support/Claude/claude_desktop_config.json", format: FormatJSON,
			want: []srv{
				{Name: "notes", Transport: "stdio", Command: "npx", Args: l("-y", "@example/notes-server@1.4.0", "/home/u/notes"),
					EnvKeys: l("LOG_LEVEL", "NOTES_TOKEN"), Client: "claude-desktop", Scope: "user", Path: "$.mcpServers.notes", Line: 4},
				{Name: "weather", Transport: "stdio", Command: "uvx", Args: l("example-weather-mcp"),
					Client: "claude-desktop", Scope: "user", Path: "$.mcpServers.weather", Line: 9},
			},
		},
		{
			name: "claude code user file keeps project servers apart", fixture: "claude.json",
			as: "/home/u/.claude.json", format: FormatJSON,
			want: []srv{
				{Name: "files", Transport: "stdio", Command: "node", Args: l("/opt/files-server/index.js"), EnvKeys: l(),
					Client: "claude-code", Scope: "user", Path: "$.mcpServers.files", Line: 4},
				{Name: "tracker", Transport: "http", URL: "https://tracker.example.test/mcp", HeaderKeys: l("Authorization"),
					Client: "claude-code", Scope: "user", Path: "$.mcpServers.tracker", Line: 10},
				{Name: "files@/home/u/repo", Transport: "stdio", Command: "node", Args: l("/home/u/repo/tools/files.js"),
					Client: "claude-code", Scope: "project", Path: `$.projects["/home/u/repo"].mcpServers.files`, Line: 20},
				{Name: "search@/home/u/repo", Transport: "sse", URL: "https://search.example.test/sse",
					Client: "claude-code", Scope: "project", Path: `$.projects["/home/u/repo"].mcpServers.search`, Line: 25},
				{Name: "files@/home/u/other", Transport: "streamable-http", URL: "https://files.example.test/mcp",
					Client: "claude-code", Scope: "project", Path: `$.projects["/home/u/other"].mcpServers.files`, Line: 36},
			},
		},
		{
			name: "cursor stdio, untyped url and websocket", fixture: "cursor_mcp.json",
			as: "/home/u/.cursor/mcp.json", opts: Options{Home: "/home/u"}, format: FormatJSON,
			want: []srv{
				{Name: "browser", Transport: "stdio", Command: "npx", Args: l("-y", "example-browser-mcp"), EnvKeys: l("BROWSER_API_KEY"),
					Client: "cursor", Scope: "user", Path: "$.mcpServers.browser", Line: 3},
				{Name: "docs", Transport: "streamable-http", URL: "https://docs.example.test/mcp", HeaderKeys: l("X-Api-Key"),
					Client: "cursor", Scope: "user", Path: "$.mcpServers.docs", Line: 8},
				{Name: "live", Transport: "ws", URL: "wss://live.example.test/socket",
					Client: "cursor", Scope: "user", Path: "$.mcpServers.live", Line: 12},
			},
		},
		{
			name: "cursor project file is project scope", fixture: "cursor_mcp.json",
			as: "/home/u/repo/.cursor/mcp.json", opts: Options{Home: "/home/u"}, format: FormatJSON,
			want: []srv{
				{Name: "browser@/home/u/repo", Transport: "stdio", Command: "npx", Args: l("-y", "example-browser-mcp"), EnvKeys: l("BROWSER_API_KEY"),
					Client: "cursor", Scope: "project", Path: "$.mcpServers.browser", Line: 3},
				{Name: "docs@/home/u/repo", Transport: "streamable-http", URL: "https://docs.example.test/mcp", HeaderKeys: l("X-Api-Key"),
					Client: "cursor", Scope: "project", Path: "$.mcpServers.docs", Line: 8},
				{Name: "live@/home/u/repo", Transport: "ws", URL: "wss://live.example.test/socket",
					Client: "cursor", Scope: "project", Path: "$.mcpServers.live", Line: 12},
			},
		},
		{
			name: "windsurf serverUrl", fixture: "windsurf_mcp_config.json",
			as: `C:\Users\u\.codeium\windsurf\mcp_config.json`, format: FormatJSON,
			want: []srv{
				{Name: "remote-kb", Transport: "unknown", URL: "https://kb.example.test/mcp", HeaderKeys: l("Authorization"),
					Client: "windsurf", Scope: "user", Path: "$.mcpServers.remote-kb", Line: 3},
				{Name: "git", Transport: "stdio", Command: "uvx", Args: l("example-git-mcp", "--repository", "/home/u/repo"),
					Client: "windsurf", Scope: "user", Path: "$.mcpServers.git", Line: 7},
			},
		},
		{
			name: "vscode mcp.json is JSONC with inputs", fixture: "vscode_mcp.jsonc",
			as: "/home/u/.config/Code/User/mcp.json", format: FormatJSON,
			want: []srv{
				{Name: "local-db", Transport: "stdio", Command: "docker", Args: l("run", "-i", "--rm", "example/db-mcp:2.0"),
					EnvKeys: l("DB_HOST", "DB_PASSWORD"), Client: "vscode", Scope: "user", Path: "$.servers.local-db", Line: 8},
				{Name: "issues", Transport: "http", URL: "https://issues.example.test/mcp", HeaderKeys: l("Authorization"),
					Client: "vscode", Scope: "user", Path: "$.servers.issues", Line: 15},
				{Name: "events", Transport: "sse", URL: "https://events.example.test/sse",
					Client: "vscode", Scope: "user", Path: "$.servers.events", Line: 20},
			},
		},
		{
			name: "vscode workspace mcp.json is project scope", fixture: "vscode_mcp.jsonc",
			as: "/home/u/repo/.vscode/mcp.json", format: FormatJSON,
			want: []srv{
				{Name: "local-db@/home/u/repo", Transport: "stdio", Command: "docker", Args: l("run", "-i", "--rm", "example/db-mcp:2.0"),
					EnvKeys: l("DB_HOST", "DB_PASSWORD"), Client: "vscode", Scope: "project", Path: "$.servers.local-db", Line: 8},
				{Name: "issues@/home/u/repo", Transport: "http", URL: "https://issues.example.test/mcp", HeaderKeys: l("Authorization"),
					Client: "vscode", Scope: "project", Path: "$.servers.issues", Line: 15},
				{Name: "events@/home/u/repo", Transport: "sse", URL: "https://events.example.test/sse",
					Client: "vscode", Scope: "project", Path: "$.servers.events", Line: 20},
			},
		},
		{
			name: "vscode settings nested mcp.servers", fixture: "vscode_settings_nested.json",
			as: "/Users/u/Library/Application Support/Code/User/settings.json", format: FormatVSCodeSettings,
			want: []srv{
				{Name: "lint", Transport: "stdio", Command: "npx", Args: l("-y", "example-lint-mcp"),
					Client: "vscode", Scope: "user", Path: "$.mcp.servers.lint", Line: 6},
			},
		},
		{
			name: "vscode insiders profile settings with the dotted key", fixture: "vscode_settings_dotted.json",
			as: `C:\Users\u\AppData\Roaming\Code - Insiders\User\profiles\1a2b3c\settings.json`, format: FormatVSCodeSettings,
			want: []srv{
				{Name: "calendar", Transport: "http", URL: "https://calendar.example.test/mcp",
					Client: "vscode", Scope: "user", Path: `$["mcp.servers"].calendar`, Line: 4},
			},
		},
		{
			name: "vscode settings keys detected by content under any name", fixture: "vscode_settings_dotted.json",
			as: "exported-settings.json", format: FormatVSCodeSettings,
			want: []srv{
				{Name: "calendar", Transport: "http", URL: "https://calendar.example.test/mcp",
					Client: "vscode", Scope: "user", Path: `$["mcp.servers"].calendar`, Line: 4},
			},
		},
		{
			name: "copilot cli local and http", fixture: "copilot_mcp-config.json",
			as: "/home/u/.copilot/mcp-config.json", format: FormatJSON,
			want: []srv{
				{Name: "repo-tools", Transport: "stdio", Command: "npx", Args: l("-y", "example-repo-tools"),
					Client: "copilot-cli", Scope: "user", Path: "$.mcpServers.repo-tools", Line: 3},
				{Name: "hosted", Transport: "http", URL: "https://hosted.example.test/mcp", HeaderKeys: l("X-Token"),
					Client: "copilot-cli", Scope: "user", Path: "$.mcpServers.hosted", Line: 9},
			},
		},
		{
			name: "cline disabled and streamableHttp", fixture: "cline_mcp_settings.json",
			as: "/home/u/.config/Cursor/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json", format: FormatJSON,
			want: []srv{
				{Name: "shell", Transport: "stdio", Command: "python", Args: l("-m", "example_shell_mcp"), Disabled: true,
					Client: "cline", Scope: "user", Path: "$.mcpServers.shell", Line: 3},
				{Name: "stream", Transport: "streamable-http", URL: "https://stream.example.test/mcp",
					Client: "cline", Scope: "user", Path: "$.mcpServers.stream", Line: 9},
			},
		},
		{
			name: "roo code", fixture: "roo_mcp_settings.json",
			as: "/home/u/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json", format: FormatJSON,
			want: []srv{
				{Name: "tasks", Transport: "stdio", Command: "node", Args: l("/opt/tasks/server.js"), EnvKeys: l("TASKS_TOKEN"),
					Client: "roo-code", Scope: "user", Path: "$.mcpServers.tasks", Line: 3},
			},
		},
		{
			name: "continue yaml list", fixture: "continue_config.yaml",
			as: "/home/u/.continue/config.yaml", format: FormatContinueYAML,
			want: []srv{
				{Name: "SQLite", Transport: "stdio", Command: "uvx", Args: l("mcp-server-sqlite", "--db-path", "/home/u/data/example.db"),
					EnvKeys: l("SQLITE_KEY"), Client: "continue", Scope: "user", Path: "$.mcpServers[0]", Line: 10},
				{Name: "Remote Notes", Transport: "streamable-http", URL: "https://notes.example.test/mcp",
					Client: "continue", Scope: "user", Path: "$.mcpServers[1]", Line: 19},
				{Name: "Events", Transport: "sse", URL: "https://events.example.test/sse",
					Client: "continue", Scope: "user", Path: "$.mcpServers[2]", Line: 22},
				{Name: "example-org/memory-mcp", Transport: "unknown",
					Client: "continue", Scope: "user", Path: "$.mcpServers[3]", Line: 25},
			},
		},
		{
			name: "continue yaml older map form", fixture: "continue_map.yaml",
			as: "/home/u/.continue/config.yaml", format: FormatContinueYAML,
			want: []srv{
				{Name: "fetch", Transport: "stdio", Command: "uvx", Args: l("example-fetch-mcp"),
					Client: "continue", Scope: "user", Path: "$.mcpServers.fetch", Line: 4},
			},
		},
		{
			name: "continue workspace block file with one server", fixture: "continue_block.yaml",
			as: "/home/u/repo/.continue/mcpServers/browser.yaml", format: FormatContinueYAML,
			want: []srv{
				{Name: "Browser@/home/u/repo", Transport: "stdio", Command: "npx", Args: l("-y", "example-browser-mcp"),
					Client: "continue", Scope: "project", Path: "$", Line: 2},
			},
		},
		{
			name: "continue workspace json list", fixture: "continue_block_list.json",
			as: "/home/u/repo/.continue/mcpServers/servers.json", format: FormatJSON,
			want: []srv{
				{Name: "one@/home/u/repo", Transport: "stdio", Command: "uvx", Args: l("example-one"),
					Client: "continue", Scope: "project", Path: "$[0]", Line: 2},
				{Name: "two@/home/u/repo", Transport: "sse", URL: "https://two.example.test/sse",
					Client: "continue", Scope: "project", Path: "$[1]", Line: 3},
			},
		},
		{
			name: "continue legacy config.json", fixture: "continue_legacy_config.json",
			as: "/home/u/.continue/config.json", format: FormatJSON,
			want: []srv{
				{Name: "modelContextProtocolServers[0]", Transport: "stdio", Command: "uvx", Args: l("mcp-server-sqlite", "--db-path", "/home/u/example.db"),
					Client: "continue", Scope: "user", Path: "$.experimental.modelContextProtocolServers[0].transport", Line: 6},
				{Name: "remote", Transport: "sse", URL: "https://legacy.example.test/sse",
					Client: "continue", Scope: "user", Path: "$.experimental.modelContextProtocolServers[1].transport", Line: 14},
			},
		},
		{
			name: "zed flat, legacy, remote and extension servers", fixture: "zed_settings.json",
			as: "/home/u/.config/zed/settings.json", format: FormatZed,
			want: []srv{
				{Name: "flat-stdio", Transport: "stdio", Command: "npx", Args: l("-y", "example-zed-mcp"), EnvKeys: l("ZED_MCP_TOKEN"),
					Client: "zed", Scope: "user", Path: "$.context_servers.flat-stdio", Line: 5},
				{Name: "legacy", Transport: "stdio", Command: "/usr/local/bin/legacy-mcp", Args: l("--stdio"), EnvKeys: l("LEGACY_MODE"),
					Client: "zed", Scope: "user", Path: "$.context_servers.legacy", Line: 11},
				{Name: "remote", Transport: "unknown", URL: "https://zed-remote.example.test/mcp", HeaderKeys: l("Authorization"), Disabled: true,
					Client: "zed", Scope: "user", Path: "$.context_servers.remote", Line: 19},
				{Name: "from-extension", Transport: "unknown",
					Client: "zed", Scope: "user", Path: "$.context_servers.from-extension", Line: 24},
			},
		},
		{
			name: "gemini url is sse, httpUrl is http", fixture: "gemini_settings.json",
			as: "/home/u/.gemini/settings.json", format: FormatJSON,
			want: []srv{
				{Name: "local-python", Transport: "stdio", Command: "python", Args: l("-m", "example_server"), EnvKeys: l("EXAMPLE_KEY"),
					Client: "gemini-cli", Scope: "user", Path: "$.mcpServers.local-python", Line: 4},
				{Name: "sse-server", Transport: "sse", URL: "https://sse.example.test/sse",
					Client: "gemini-cli", Scope: "user", Path: "$.mcpServers.sse-server", Line: 12},
				{Name: "http-server", Transport: "http", URL: "https://http.example.test/mcp", HeaderKeys: l("Authorization"),
					Client: "gemini-cli", Scope: "user", Path: "$.mcpServers.http-server", Line: 15},
			},
		},
		{
			name: "gemini system settings are managed", fixture: "gemini_settings.json",
			as: `C:\ProgramData\gemini-cli\settings.json`, format: FormatJSON,
			want: []srv{
				{Name: "local-python", Transport: "stdio", Command: "python", Args: l("-m", "example_server"), EnvKeys: l("EXAMPLE_KEY"),
					Client: "gemini-cli", Scope: "managed", Path: "$.mcpServers.local-python", Line: 4},
				{Name: "sse-server", Transport: "sse", URL: "https://sse.example.test/sse",
					Client: "gemini-cli", Scope: "managed", Path: "$.mcpServers.sse-server", Line: 12},
				{Name: "http-server", Transport: "http", URL: "https://http.example.test/mcp", HeaderKeys: l("Authorization"),
					Client: "gemini-cli", Scope: "managed", Path: "$.mcpServers.http-server", Line: 15},
			},
		},
		{
			name: "codex toml tables", fixture: "codex_config.toml",
			as: "/home/u/.codex/config.toml", format: FormatCodexTOML,
			want: []srv{
				{Name: "docs", Transport: "stdio", Command: "npx", Args: l("-y", "example-docs-mcp"), EnvKeys: l("DOCS_TOKEN"),
					Client: "codex", Scope: "user", Path: "$.mcp_servers.docs", Line: 4},
				{Name: "remote", Transport: "http", URL: "https://codex-remote.example.test/mcp", HeaderKeys: l("Authorization", "X-Team"),
					Client: "codex", Scope: "user", Path: "$.mcp_servers.remote", Line: 12},
				{Name: "off", Transport: "stdio", Command: "uvx", Args: l("example-off"), Disabled: true,
					Client: "codex", Scope: "user", Path: "$.mcp_servers.off", Line: 17},
			},
		},
		{
			name: "opencode command array and remote", fixture: "opencode.json",
			as: "/home/u/.config/opencode/opencode.json", format: FormatOpenCode,
			want: []srv{
				{Name: "local-fs", Transport: "stdio", Command: "npx", Args: l("-y", "example-fs-mcp", "/home/u"), EnvKeys: l("FS_TOKEN"),
					Client: "opencode", Scope: "user", Path: "$.mcp.local-fs", Line: 4},
				{Name: "remote-ctx", Transport: "http", URL: "https://ctx.example.test/mcp", HeaderKeys: l("Authorization"), Disabled: true,
					Client: "opencode", Scope: "user", Path: "$.mcp.remote-ctx", Line: 10},
			},
		},
		{
			name: "opencode project file", fixture: "opencode.json",
			as: "/home/u/repo/opencode.json", format: FormatOpenCode,
			want: []srv{
				{Name: "local-fs@/home/u/repo", Transport: "stdio", Command: "npx", Args: l("-y", "example-fs-mcp", "/home/u"), EnvKeys: l("FS_TOKEN"),
					Client: "opencode", Scope: "project", Path: "$.mcp.local-fs", Line: 4},
				{Name: "remote-ctx@/home/u/repo", Transport: "http", URL: "https://ctx.example.test/mcp", HeaderKeys: l("Authorization"), Disabled: true,
					Client: "opencode", Scope: "project", Path: "$.mcp.remote-ctx", Line: 10},
			},
		},
		{
			name: "kiro disabled", fixture: "kiro_mcp.json",
			as: "/home/u/.kiro/settings/mcp.json", format: FormatJSON,
			want: []srv{
				{Name: "fetch", Transport: "stdio", Command: "uvx", Args: l("example-fetch-mcp"), EnvKeys: l(), Disabled: true,
					Client: "kiro", Scope: "user", Path: "$.mcpServers.fetch", Line: 3},
			},
		},
		{
			name: "amazon q", fixture: "amazonq_mcp.json",
			as: "/home/u/.aws/amazonq/mcp.json", format: FormatJSON,
			want: []srv{
				{Name: "aws-docs", Transport: "stdio", Command: "uvx", Args: l("example-aws-docs-mcp@latest"), EnvKeys: l("FASTMCP_LOG_LEVEL"),
					Client: "amazon-q", Scope: "user", Path: "$.mcpServers.aws-docs", Line: 3},
			},
		},
		{
			name: "claude code managed file", fixture: "managed-mcp.json",
			as: "/etc/claude-code/managed-mcp.json", format: FormatJSON,
			want: []srv{
				{Name: "company-tools", Transport: "http", URL: "https://tools.example.test/mcp",
					Client: "claude-code", Scope: "managed", Path: "$.mcpServers.company-tools", Line: 3},
			},
		},
		{
			name: "claude code plugin file", fixture: "managed-mcp.json",
			as: "/home/u/.claude/plugins/marketplaces/acme/tools/.mcp.json", format: FormatJSON,
			want: []srv{
				{Name: "company-tools", Transport: "http", URL: "https://tools.example.test/mcp",
					Client: "claude-code", Scope: "plugin", Path: "$.mcpServers.company-tools", Line: 3},
			},
		},
		{
			name: "generic file detected by content", fixture: "claude_desktop_config.json",
			as: "servers-export.json", format: FormatJSON,
			want: []srv{
				{Name: "notes", Transport: "stdio", Command: "npx", Args: l("-y", "@example/notes-server@1.4.0", "/home/u/notes"),
					EnvKeys: l("LOG_LEVEL", "NOTES_TOKEN"), Client: "generic", Scope: "user", Path: "$.mcpServers.notes", Line: 4},
				{Name: "weather", Transport: "stdio", Command: "uvx", Args: l("example-weather-mcp"),
					Client: "generic", Scope: "user", Path: "$.mcpServers.weather", Line: 9},
			},
		},
		{
			name: "caller's client and scope win", fixture: "kiro_mcp.json",
			as: "/srv/team/mcp.json", opts: Options{Client: "kiro", Scope: "managed", Format: FormatJSON}, format: FormatJSON,
			want: []srv{
				{Name: "fetch", Transport: "stdio", Command: "uvx", Args: l("example-fetch-mcp"), EnvKeys: l(), Disabled: true,
					Client: "kiro", Scope: "managed", Path: "$.mcpServers.fetch", Line: 3},
			},
		},
		{
			name: "comment-only JSONC declares no servers", fixture: "comments_only.jsonc",
			as: "/home/u/.cursor/mcp.json", format: FormatJSON,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := readFixture(t, tt.fixture)
			inv, f, err := ParseWith(tt.as, data, tt.opts)
			if err != nil {
				t.Fatalf("ParseWith: %v", err)
			}
			if f != tt.format {
				t.Errorf("format = %q, want %q", f, tt.format)
			}
			if inv.File != tt.as {
				t.Errorf("File = %q, want %q", inv.File, tt.as)
			}
			var got []srv
			for _, s := range inv.Servers {
				got = append(got, project(s))
				if len(s.Tools) != 0 {
					t.Errorf("server %s has tools", s.Name)
				}
				if len(s.Env) != len(s.EnvKeys) || len(s.Headers) != len(s.HeaderKeys) {
					t.Errorf("server %s: env/header maps and key lists disagree", s.Name)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d servers, want %d:\n%v", len(got), len(tt.want), got)
			}
			for i := range got {
				if !reflect.DeepEqual(got[i], tt.want[i]) {
					t.Errorf("server %d:\n got %v\nwant %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// Env and header values are kept for the caller, in memory.
func TestParseKeepsValuesInMemory(t *testing.T) {
	inv, _, err := Parse("/home/u/.codex/config.toml", readFixture(t, "codex_config.toml"), FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	docs, remote := inv.Server("docs"), inv.Server("remote")
	if docs.Env["DOCS_TOKEN"] != "fake-token-not-real-0011" {
		t.Errorf("docs env = %v", docs.Env)
	}
	want := map[string]string{"Authorization": "Bearer ${REMOTE_TOKEN}", "X-Team": "${TEAM_ID}"}
	if !reflect.DeepEqual(remote.Headers, want) {
		t.Errorf("remote headers = %v, want %v", remote.Headers, want)
	}
	inv, _, err = Parse("/home/u/.config/zed/settings.json", readFixture(t, "zed_settings.json"), FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	if got := inv.Server("legacy").Env["LEGACY_MODE"]; got != "1" {
		t.Errorf("zed legacy env = %q", got)
	}
}

func TestParseHintOverridesName(t *testing.T) {
	// A Codex TOML file under an unhelpful name, read with a hint.
	inv, f, err := Parse("/tmp/x.conf", readFixture(t, "codex_config.toml"), FormatCodexTOML)
	if err != nil || f != FormatCodexTOML || len(inv.Servers) != 3 {
		t.Fatalf("got %v, %q, %v", inv, f, err)
	}
	// And sniffed without a hint.
	inv, f, err = Parse("/tmp/x.conf", readFixture(t, "codex_config.toml"), FormatAuto)
	if err != nil || f != FormatCodexTOML || len(inv.Servers) != 3 {
		t.Fatalf("sniffed: got %v, %q, %v", inv, f, err)
	}
	inv, f, err = Parse("/tmp/continue", readFixture(t, "continue_config.yaml"), FormatAuto)
	if err != nil || f != FormatContinueYAML || len(inv.Servers) != 4 {
		t.Fatalf("sniffed yaml: got %v, %q, %v", inv, f, err)
	}
}

func TestParseSpecificFormatReadsOnlyItsKeys(t *testing.T) {
	doc := `{"mcpServers": {"a": {"command": "x"}}, "context_servers": {"b": {"command": "y"}}, "mcp.servers": {"c": {"command": "z"}}}`
	for _, tc := range []struct {
		f    Format
		want []string
	}{
		{FormatJSON, l("a", "b", "c")},
		{FormatZed, l("b")},
		{FormatVSCodeSettings, l("c")},
		{FormatOpenCode, nil},
	} {
		inv, _, err := Parse("mixed.json", []byte(doc), tc.f)
		if err != nil {
			t.Fatalf("%s: %v", tc.f, err)
		}
		var names []string
		for _, s := range inv.Servers {
			names = append(names, s.Name)
		}
		if !reflect.DeepEqual(names, tc.want) {
			t.Errorf("%s: servers %v, want %v", tc.f, names, tc.want)
		}
	}
}

func TestParseEmptyDocuments(t *testing.T) {
	for _, tc := range []struct{ file, data string }{
		{"/home/u/.cursor/mcp.json", ""},
		{"/home/u/.cursor/mcp.json", " \n\t\r\n"},
		{"/home/u/.cursor/mcp.json", "\xef\xbb\xbf\n"},
		{"anything.json", "// only a comment\n/* and a block\n comment */\n"},
		{"/home/u/.continue/config.yaml", ""},
		{"/home/u/.continue/config.yaml", "# a comment\n"},
		{"/home/u/.continue/config.yaml", "mcpServers:\n"},
		{"/home/u/.codex/config.toml", ""},
		{"/home/u/.codex/config.toml", "# nothing\nmodel = \"m\"\n"},
		{"/home/u/.config/Code/User/settings.json", `{"editor.fontSize": 12}`},
		{"/home/u/.gemini/settings.json", `{"theme": "Default"}`},
		{"/home/u/.claude.json", `{"projects": {"/home/u/repo": {"allowedTools": []}}}`},
		{"/home/u/.cursor/mcp.json", `{"mcpServers": {}}`},
	} {
		inv, _, err := Parse(tc.file, []byte(tc.data), FormatAuto)
		if err != nil {
			t.Errorf("%s %q: %v", tc.file, tc.data, err)
			continue
		}
		if len(inv.Servers) != 0 || inv.File != tc.file {
			t.Errorf("%s %q: got %d servers, file %q", tc.file, tc.data, len(inv.Servers), inv.File)
		}
	}
}

func TestParseInventoryIsReportedNotRead(t *testing.T) {
	for _, hint := range []Format{FormatAuto, FormatJSON, FormatInventory} {
		inv, f, err := Parse("inventory.json", readFixture(t, "inventory.json"), hint)
		if inv != nil || f != FormatInventory || !errors.Is(err, ErrInventory) {
			t.Errorf("%s: got %v, %q, %v", hint, inv, f, err)
		}
		var ie *engine.InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: error %T is not an *engine.InputError", hint, err)
		}
	}
}

func TestParseFormatNames(t *testing.T) {
	for _, f := range Formats() {
		got, err := ParseFormat(string(f))
		if err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	if f, err := ParseFormat(""); err != nil || f != FormatAuto {
		t.Errorf("ParseFormat(\"\") = %q, %v", f, err)
	}
	if _, err := ParseFormat("xml"); err == nil {
		t.Error("ParseFormat(xml) succeeded")
	}
	if _, _, err := Parse("x.json", []byte("{}"), Format("xml")); err == nil {
		t.Error("Parse with an unknown format succeeded")
	}
}

func TestProjectDirs(t *testing.T) {
	dirs, err := ProjectDirs("/home/u/.claude.json", readFixture(t, "claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := l("/home/u/empty-project", "/home/u/other", "/home/u/repo")
	if !reflect.DeepEqual(dirs, want) {
		t.Errorf("ProjectDirs = %v, want %v", dirs, want)
	}
	if dirs, err := ProjectDirs("x.json", []byte(`{"mcpServers": {}}`)); err != nil || dirs != nil {
		t.Errorf("no projects: %v, %v", dirs, err)
	}
	if _, err := ProjectDirs("x.json", []byte(`{"projects": []}`)); err == nil {
		t.Error("projects as a list: no error")
	}
	if _, err := ProjectDirs("x.json", []byte(`{"projects": {"/a": {}, "/a": {}}}`)); err == nil {
		t.Error("duplicate project: no error")
	}
}

func TestClientAndScopeForPath(t *testing.T) {
	for _, tc := range []struct{ path, home, client, scope string }{
		{`C:\Users\u\AppData\Local\Packages\Claude_pzs8sxrjxfjjc\LocalCache\Roaming\Claude\claude_desktop_config.json`, "", "claude-desktop", "user"},
		{"/Library/Application Support/ClaudeCode/managed-mcp.json", "", "claude-code", "managed"},
		{`C:\Program Files\ClaudeCode\managed-mcp.json`, "", "claude-code", "managed"},
		{"/home/u/repo/.mcp.json", "/home/u", "claude-code", "project"},
		{"/home/u/.codex/config.toml", "/home/u", "codex", "user"},
		{"/home/u/repo/.codex/config.toml", "/home/u", "codex", "project"},
		{"/home/u/repo/.codex/config.toml", "", "codex", "user"},
		{`C:\ProgramData\OpenAI\Codex\config.toml`, "", "codex", "managed"},
		{"/home/u/repo/.gemini/settings.json", "/home/u/", "gemini-cli", "project"},
		{"/home/u/repo/.amazonq/mcp.json", "", "amazon-q", "project"},
		{"/home/u/.aws/amazonq/mcp.json", "", "amazon-q", "user"},
		{"/home/u/repo/.zed/settings.json", "", "zed", "project"},
		{"/home/u/repo/.continue/mcpServers/x.yaml", "", "continue", "project"},
		{"/home/u/.cline/data/settings/cline_mcp_settings.json", "", "cline", "user"},
		{"/home/u/notes.json", "", "generic", "user"},
	} {
		if got := ClientForPath(tc.path); got != tc.client {
			t.Errorf("ClientForPath(%q) = %q, want %q", tc.path, got, tc.client)
		}
		if got := ScopeForPath(tc.path, tc.home); got != tc.scope {
			t.Errorf("ScopeForPath(%q, %q) = %q, want %q", tc.path, tc.home, got, tc.scope)
		}
	}
}

// A JSONC file's errors point at the original text: comments before the
// problem do not move the line or column.
func TestJSONCPositionsSurviveComments(t *testing.T) {
	doc := "// header\n{\n  /* a\n     block */ \"mcpServers\": {\n    \"a\": {\"command\": 7},\n  },\n}\n"
	_, _, err := Parse("/home/u/.cursor/mcp.json", []byte(doc), FormatAuto)
	ie := asInputError(t, err)
	if ie.Line != 5 || ie.Col != 22 || ie.Path != "$.mcpServers.a.command" {
		t.Errorf("got %d:%d %s (%v)", ie.Line, ie.Col, ie.Path, err)
	}
	if !strings.Contains(ie.Msg, "'command' must be a string, got number") {
		t.Errorf("message %q", ie.Msg)
	}
}

func asInputError(t *testing.T, err error) *engine.InputError {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	var ie *engine.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %T (%v) is not an *engine.InputError", err, err)
	}
	return ie
}
