package clientconfig

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// line renders a candidate as "client scope format [flags] path".
func line(c Candidate) string {
	flags := ""
	if c.Unverified {
		flags += " unverified"
	}
	if c.Glob {
		flags += " glob"
	}
	return fmt.Sprintf("%s %s %s%s %s", c.Client, c.Scope, c.Format, flags, c.Path)
}

func lines(cs []Candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = line(c)
	}
	return out
}

func TestCandidatesLinuxDefaults(t *testing.T) {
	got := lines(Candidates("linux", envOf(nil), "/home/u"))
	want := []string{
		"claude-desktop user json unverified /home/u/.config/Claude/claude_desktop_config.json",
		"claude-code user json /home/u/.claude.json",
		"claude-code plugin json glob /home/u/.claude/plugins/**/.mcp.json",
		"claude-code managed json /etc/claude-code/managed-mcp.json",
		"cursor user json /home/u/.cursor/mcp.json",
		"windsurf user json /home/u/.codeium/windsurf/mcp_config.json",
		"vscode user json /home/u/.config/Code/User/mcp.json",
		"vscode user vscode-settings /home/u/.config/Code/User/settings.json",
		"vscode user json glob /home/u/.config/Code/User/profiles/*/mcp.json",
		"vscode user vscode-settings glob /home/u/.config/Code/User/profiles/*/settings.json",
		"vscode user json /home/u/.config/Code - Insiders/User/mcp.json",
		"vscode user vscode-settings /home/u/.config/Code - Insiders/User/settings.json",
		"vscode user json glob /home/u/.config/Code - Insiders/User/profiles/*/mcp.json",
		"vscode user vscode-settings glob /home/u/.config/Code - Insiders/User/profiles/*/settings.json",
		"copilot-cli user json /home/u/.copilot/mcp-config.json",
		"cline user json /home/u/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
		"cline user json /home/u/.config/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
		"cline user json /home/u/.config/Cursor/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
		"cline user json /home/u/.cline/data/settings/cline_mcp_settings.json",
		"roo-code user json /home/u/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
		"roo-code user json /home/u/.config/Code - Insiders/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
		"roo-code user json /home/u/.config/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
		"continue user continue-yaml /home/u/.continue/config.yaml",
		"continue user json /home/u/.continue/config.json",
		"zed user zed /home/u/.config/zed/settings.json",
		"gemini-cli user json /home/u/.gemini/settings.json",
		"gemini-cli managed json /etc/gemini-cli/settings.json",
		"codex user codex-toml /home/u/.codex/config.toml",
		"codex managed codex-toml /etc/codex/config.toml",
		"opencode user opencode /home/u/.config/opencode/opencode.json",
		"opencode user opencode /home/u/.config/opencode/opencode.jsonc",
		"kiro user json /home/u/.kiro/settings/mcp.json",
		"amazon-q user json /home/u/.aws/amazonq/mcp.json",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("candidates:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCandidatesLinuxOverrides(t *testing.T) {
	env := envOf(map[string]string{
		"XDG_CONFIG_HOME":   "/cfg",
		"CLAUDE_CONFIG_DIR": "/claude-cfg",
		"CODEX_HOME":        "/codex-home",
		"OPENCODE_CONFIG":   "/etc/team/opencode.json",
	})
	got := lines(Candidates("linux", env, "/home/u"))
	for _, want := range []string{
		"claude-desktop user json unverified /cfg/Claude/claude_desktop_config.json",
		"claude-code user json /claude-cfg/.claude.json",
		"claude-code plugin json glob /claude-cfg/plugins/**/.mcp.json",
		"vscode user json /cfg/Code/User/mcp.json",
		"cline user json /cfg/Cursor/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
		"zed user zed /cfg/zed/settings.json",
		"codex user codex-toml /codex-home/config.toml",
		"opencode user opencode /cfg/opencode/opencode.json",
		"opencode user opencode /etc/team/opencode.json",
	} {
		if !contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	for _, gone := range []string{"/home/u/.claude.json", "/home/u/.codex/config.toml", "/home/u/.config/"} {
		for _, g := range got {
			if strings.HasSuffix(g, gone) || strings.Contains(g, " "+gone) {
				t.Errorf("override left %q", g)
			}
		}
	}
}

func TestCandidatesIgnoreRelativeEnvAndMissingHome(t *testing.T) {
	env := envOf(map[string]string{"XDG_CONFIG_HOME": "cfg", "CODEX_HOME": "./codex", "CLAUDE_CONFIG_DIR": "~/.claude"})
	got := Candidates("linux", env, "/home/u")
	if !contains(lines(got), "codex user codex-toml /home/u/.codex/config.toml") ||
		!contains(lines(got), "zed user zed /home/u/.config/zed/settings.json") ||
		!contains(lines(got), "claude-code user json /home/u/.claude.json") {
		t.Errorf("relative variables were not ignored:\n%s", strings.Join(lines(got), "\n"))
	}
	// Without a home only system-wide places remain, and every path is absolute.
	got = Candidates("linux", nil, "")
	want := []string{
		"claude-code managed json /etc/claude-code/managed-mcp.json",
		"gemini-cli managed json /etc/gemini-cli/settings.json",
		"codex managed codex-toml /etc/codex/config.toml",
	}
	if !reflect.DeepEqual(lines(got), want) {
		t.Errorf("no home:\n%s", strings.Join(lines(got), "\n"))
	}
	got = Candidates("linux", nil, "relative/home")
	if len(got) != 3 {
		t.Errorf("relative home gave %d candidates", len(got))
	}
}

func TestCandidatesDarwin(t *testing.T) {
	got := lines(Candidates("darwin", envOf(map[string]string{"XDG_CONFIG_HOME": "/xdg"}), "/Users/u"))
	for _, want := range []string{
		"claude-desktop user json /Users/u/Library/Application Support/Claude/claude_desktop_config.json",
		"claude-code managed json /Library/Application Support/ClaudeCode/managed-mcp.json",
		"vscode user json /Users/u/Library/Application Support/Code/User/mcp.json",
		"vscode user vscode-settings glob /Users/u/Library/Application Support/Code - Insiders/User/profiles/*/settings.json",
		"roo-code user json /Users/u/Library/Application Support/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
		"zed user zed /Users/u/.config/zed/settings.json",
		"gemini-cli managed json /Library/Application Support/GeminiCli/settings.json",
		"opencode user opencode /xdg/opencode/opencode.json",
	} {
		if !contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	for _, g := range got {
		if strings.Contains(g, "/etc/") || strings.Contains(g, `\`) {
			t.Errorf("darwin lists %q", g)
		}
	}
}

func TestCandidatesWindows(t *testing.T) {
	env := envOf(map[string]string{
		"USERPROFILE":       `C:\Users\u`,
		"APPDATA":           `D:\Roaming`,
		"LOCALAPPDATA":      `D:\Local`,
		"ProgramData":       `E:\PD`,
		"CLAUDE_CONFIG_DIR": `C:\cc`,
		"CODEX_HOME":        `C:/codex`,
	})
	got := lines(Candidates("windows", env, `C:\Users\u`))
	for _, want := range []string{
		`claude-desktop user json D:\Roaming\Claude\claude_desktop_config.json`,
		`claude-desktop user json D:\Local\Packages\Claude_pzs8sxrjxfjjc\LocalCache\Roaming\Claude\claude_desktop_config.json`,
		`claude-code user json C:\cc\.claude.json`,
		`claude-code plugin json glob C:\cc\plugins\**\.mcp.json`,
		`claude-code managed json C:\Program Files\ClaudeCode\managed-mcp.json`,
		`cursor user json C:\Users\u\.cursor\mcp.json`,
		`windsurf user json C:\Users\u\.codeium\windsurf\mcp_config.json`,
		`vscode user json D:\Roaming\Code\User\mcp.json`,
		`vscode user json glob D:\Roaming\Code - Insiders\User\profiles\*\mcp.json`,
		`cline user json D:\Roaming\Cursor\User\globalStorage\saoudrizwan.claude-dev\settings\cline_mcp_settings.json`,
		`continue user continue-yaml C:\Users\u\.continue\config.yaml`,
		`zed user zed unverified D:\Roaming\Zed\settings.json`,
		`gemini-cli managed json E:\PD\gemini-cli\settings.json`,
		`codex user codex-toml C:\codex\config.toml`,
		`codex managed codex-toml E:\PD\OpenAI\Codex\config.toml`,
		`opencode user opencode unverified C:\Users\u\.config\opencode\opencode.json`,
		`opencode user opencode unverified D:\Local\opencode\opencode.jsonc`,
		`amazon-q user json C:\Users\u\.aws\amazonq\mcp.json`,
	} {
		if !contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	for _, g := range got {
		if strings.Contains(g, "/") {
			t.Errorf("windows path with a slash: %q", g)
		}
	}
}

func TestCandidatesWindowsDerivesFromProfile(t *testing.T) {
	got := lines(Candidates("windows", envOf(map[string]string{"USERPROFILE": `C:\Users\u`}), ""))
	for _, want := range []string{
		`claude-desktop user json C:\Users\u\AppData\Roaming\Claude\claude_desktop_config.json`,
		`claude-desktop user json C:\Users\u\AppData\Local\Packages\Claude_pzs8sxrjxfjjc\LocalCache\Roaming\Claude\claude_desktop_config.json`,
		`claude-code user json C:\Users\u\.claude.json`,
		`gemini-cli managed json C:\ProgramData\gemini-cli\settings.json`,
		`codex user codex-toml C:\Users\u\.codex\config.toml`,
	} {
		if !contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
}

func TestCandidatesAreUniqueAndParseable(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows", "freebsd"} {
		home := "/home/u"
		if goos == "windows" {
			home = `C:\Users\u`
		}
		env := envOf(map[string]string{"OPENCODE_CONFIG": home + "/.config/opencode/opencode.json"})
		if goos == "windows" {
			env = envOf(map[string]string{"OPENCODE_CONFIG": home + `\.config\opencode\opencode.json`})
		}
		seen := map[string]bool{}
		for _, c := range Candidates(goos, env, home) {
			if seen[c.Path] {
				t.Errorf("%s: %s listed twice", goos, c.Path)
			}
			seen[c.Path] = true
			if c.Format == FormatAuto || c.Format == FormatInventory || c.Client == "" {
				t.Errorf("%s: %+v", goos, c)
			}
			if _, err := ParseFormat(string(c.Format)); err != nil {
				t.Errorf("%s: %v", goos, err)
			}
			// The path alone tells the same client, so a watcher that only
			// has the path still labels servers right.
			if !c.Glob && ClientForPath(c.Path) != c.Client {
				t.Errorf("%s: ClientForPath(%q) = %q, candidate says %q", goos, c.Path, ClientForPath(c.Path), c.Client)
			}
			if !c.Glob && ScopeForPath(c.Path, home) != c.Scope {
				t.Errorf("%s: ScopeForPath(%q) = %q, candidate says %q", goos, c.Path, ScopeForPath(c.Path, home), c.Scope)
			}
		}
	}
}

func TestProjectCandidates(t *testing.T) {
	got := lines(ProjectCandidates("/home/u/repo", "linux"))
	want := []string{
		"claude-code project json /home/u/repo/.mcp.json",
		"cursor project json /home/u/repo/.cursor/mcp.json",
		"vscode project json /home/u/repo/.vscode/mcp.json",
		"vscode project vscode-settings /home/u/repo/.vscode/settings.json",
		"gemini-cli project json /home/u/repo/.gemini/settings.json",
		"codex project codex-toml /home/u/repo/.codex/config.toml",
		"zed project zed /home/u/repo/.zed/settings.json",
		"kiro project json /home/u/repo/.kiro/settings/mcp.json",
		"amazon-q project json /home/u/repo/.amazonq/mcp.json",
		"roo-code project json unverified /home/u/repo/.roo/mcp.json",
		"opencode project opencode /home/u/repo/opencode.json",
		"opencode project opencode /home/u/repo/opencode.jsonc",
		"continue project continue-yaml glob /home/u/repo/.continue/mcpServers/*.yaml",
		"continue project continue-yaml glob /home/u/repo/.continue/mcpServers/*.yml",
		"continue project json glob /home/u/repo/.continue/mcpServers/*.json",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("project candidates:\n%s", strings.Join(got, "\n"))
	}
	win := lines(ProjectCandidates(`C:\src\repo\`, "windows"))
	if win[0] != `claude-code project json C:\src\repo\.mcp.json` || !contains(win, `continue project json glob C:\src\repo\.continue\mcpServers\*.json`) {
		t.Errorf("windows project candidates:\n%s", strings.Join(win, "\n"))
	}
	if ProjectCandidates("repo", "linux") != nil {
		t.Error("a relative project directory gave candidates")
	}
}

// The options a candidate carries parse its file the way its client means.
func TestCandidateOptions(t *testing.T) {
	for _, c := range ProjectCandidates("/home/u/repo", "linux") {
		if c.Client != "cursor" {
			continue
		}
		inv, f, err := ParseWith(c.Path, readFixture(t, "cursor_mcp.json"), c.Options())
		if err != nil || f != FormatJSON || inv.Servers[0].Scope != "project" || inv.Servers[0].Client != "cursor" {
			t.Errorf("got %v %q %v", inv, f, err)
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// Project files name their servers with the project directory, so two
// projects' servers of one name stay distinct; user files do not.
func TestProjectDir(t *testing.T) {
	for _, tt := range []struct{ file, home, want string }{
		{"/home/u/a/.mcp.json", "/home/u", "/home/u/a"},
		{"/home/u/b/.cursor/mcp.json", "/home/u", "/home/u/b"},
		{"/home/u/.cursor/mcp.json", "/home/u", ""},
		{"/home/u/r/.vscode/mcp.json", "/home/u", "/home/u/r"},
		{"/home/u/r/.continue/mcpServers/x.yaml", "/home/u", "/home/u/r"},
		{"/home/u/r/opencode.json", "/home/u", "/home/u/r"},
		{`C:\Users\u\r\.vscode\mcp.json`, `C:\Users\u`, `C:\Users\u\r`},
		{"r/.mcp.json", "/home/u", ""},
		{"/home/u/.claude.json", "/home/u", ""},
	} {
		if got := ProjectDir(tt.file, tt.home); got != tt.want {
			t.Errorf("ProjectDir(%q) = %q, want %q", tt.file, got, tt.want)
		}
	}
	doc := []byte(`{"mcpServers":{"playwright":{"command":"npx","args":["-y","@playwright/mcp@1.0.0"]}}}`)
	var names []string
	for _, f := range []string{"/home/u/a/.mcp.json", "/home/u/b/.mcp.json"} {
		inv, _, err := ParseWith(f, doc, Options{Home: "/home/u"})
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, inv.Servers[0].Name)
	}
	if names[0] != "playwright@/home/u/a" || names[1] != "playwright@/home/u/b" {
		t.Errorf("project servers named %v", names)
	}
	inv, _, err := ParseWith(".mcp.json", doc, Options{Home: "/home/u", Abs: "/home/u/c/.mcp.json"})
	if err != nil || inv.Servers[0].Name != "playwright@/home/u/c" {
		t.Errorf("relative file with Abs: %v %v", inv, err)
	}
}
