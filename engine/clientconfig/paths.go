package clientconfig

import (
	"path"
	"strings"
)

// norm makes a path comparable whatever OS wrote it: forward slashes,
// lower case.
func norm(p string) string { return strings.ToLower(strings.ReplaceAll(p, `\`, "/")) }

func base(p string) string { return path.Base(strings.ReplaceAll(p, `\`, "/")) }

// vscodeUserDirs are the user directories of VS Code and its builds, as
// they appear in a normalised path.
var vscodeUserDirs = []string{"/code/user/", "/code - insiders/user/", "/code - oss/user/", "/vscodium/user/"}

func isVSCodeUser(p string) bool {
	for _, d := range vscodeUserDirs {
		if strings.Contains(p, d) {
			return true
		}
	}
	return false
}

// ClientForPath names the client that owns a config file, from its path
// alone (either slash), or "generic" when the path does not say.
func ClientForPath(file string) string {
	p := "/" + norm(file)
	b := path.Base(p)
	has := func(s string) bool { return strings.Contains(p, s) }
	switch {
	case has("/saoudrizwan.claude-dev/") || b == "cline_mcp_settings.json":
		return "cline"
	case has("/rooveterinaryinc.roo-cline/") || has("/.roo/"):
		return "roo-code"
	case b == "claude_desktop_config.json":
		return "claude-desktop"
	case has("/.continue/"):
		return "continue"
	case b == ".claude.json" || b == ".mcp.json" || b == "managed-mcp.json" || has("/.claude/") || has("/claudecode/") || has("/claude-code/"):
		return "claude-code"
	case has("/.copilot/"):
		return "copilot-cli"
	case has("/.codeium/") || has("/windsurf/"):
		return "windsurf"
	case has("/.cursor/"):
		return "cursor"
	case has("/zed/") || has("/.zed/"):
		return "zed"
	case has("/.gemini/") || has("/gemini-cli/") || has("/geminicli/"):
		return "gemini-cli"
	case has("/.codex/") || has("/codex/"):
		return "codex"
	case b == "opencode.json" || b == "opencode.jsonc" || has("/opencode/"):
		return "opencode"
	case has("/.kiro/"):
		return "kiro"
	case has("/amazonq/") || has("/.amazonq/"):
		return "amazon-q"
	case has("/.vscode/") || isVSCodeUser(p):
		return "vscode"
	}
	return "generic"
}

// ScopeForPath tells where a config file sits: "managed" (system-wide:
// /etc, /Library, ProgramData, Program Files, managed-mcp.json), "plugin"
// (under ~/.claude/plugins), "project" (a file that only a repository
// holds: .mcp.json, .vscode/, .zed/, .continue/mcpServers/, .amazonq/,
// .roo/, opencode.json outside an opencode directory) or "user". Files a
// home and a repository both hold (.cursor/mcp.json, .gemini/settings.json,
// .codex/config.toml, .kiro/settings/mcp.json) are "user" when their
// directory is home, "project" when home is given and it is not, and
// "user" when home is empty.
func ScopeForPath(file, home string) string {
	n := norm(file)
	p := "/" + n
	b := path.Base(p)
	has := func(s string) bool { return strings.Contains(p, s) }
	switch {
	case b == "managed-mcp.json" || strings.HasPrefix(n, "/etc/") || strings.HasPrefix(n, "/library/") ||
		has("/programdata/") || has("/program files/"):
		return "managed"
	case has("/.claude/plugins/"):
		return "plugin"
	case b == ".mcp.json" || has("/.vscode/") || has("/.zed/") || has("/.continue/mcpservers/") ||
		has("/.roo/") || (has("/.amazonq/") && !has("/.aws/amazonq/")):
		return "project"
	case (b == "opencode.json" || b == "opencode.jsonc") && path.Base(path.Dir(p)) != "opencode":
		return "project"
	}
	for _, d := range []string{"/.cursor/", "/.gemini/", "/.codex/", "/.kiro/"} {
		i := strings.LastIndex(p, d)
		if i < 0 {
			continue
		}
		h := strings.TrimSuffix("/"+norm(home), "/")
		if home == "" || p[:i] == h {
			return "user"
		}
		return "project"
	}
	return "user"
}

// formatForPath is the format a file name implies, or FormatAuto when
// the name says only "JSON".
func formatForPath(file string) Format {
	p := "/" + norm(file)
	b := path.Base(p)
	switch {
	case strings.HasSuffix(b, ".toml"):
		return FormatCodexTOML
	case strings.HasSuffix(b, ".yaml") || strings.HasSuffix(b, ".yml"):
		return FormatContinueYAML
	case b == "opencode.json" || b == "opencode.jsonc":
		return FormatOpenCode
	case b == "settings.json" && (strings.Contains(p, "/.vscode/") || isVSCodeUser(p)):
		return FormatVSCodeSettings
	case b == "settings.json" && (strings.Contains(p, "/zed/") || strings.Contains(p, "/.zed/")):
		return FormatZed
	}
	return FormatAuto
}

// projectMarkers are the directories a project-scope config lives in,
// as they appear in a normalised path; the project is their parent.
var projectMarkers = []string{"/.cursor/", "/.vscode/", "/.zed/", "/.gemini/", "/.codex/", "/.kiro/", "/.amazonq/", "/.roo/", "/.continue/"}

// ProjectDir returns the project directory of a project-scope config
// file, in the file's own form: the directory holding .mcp.json or
// opencode.json, the parent of .cursor/, .vscode/, .zed/, .gemini/,
// .codex/, .kiro/, .amazonq/, .roo/ or .continue/. It is "" when file is
// not absolute, not a project file (ScopeForPath), or sits in home
// itself. Servers of such a file are named "<name>@<project dir>", like
// the project servers of ~/.claude.json, so two projects that each define
// a server of the same name never share a pin entry.
func ProjectDir(file, home string) string {
	if ScopeForPath(file, home) != "project" {
		return ""
	}
	p := strings.ReplaceAll(file, `\`, "/")
	abs := strings.HasPrefix(p, "/") || len(p) >= 3 && p[1] == ':' && p[2] == '/'
	if !abs {
		return ""
	}
	n := norm(file)
	end := -1
	if b := path.Base(n); b == ".mcp.json" || b == "opencode.json" || b == "opencode.jsonc" {
		end = strings.LastIndex(n, "/")
	} else {
		for _, m := range projectMarkers {
			if i := strings.LastIndex(n, m); i > end {
				end = i
			}
		}
	}
	if end <= 0 {
		if end == 0 {
			return file[:1] // a project at the root of the file system
		}
		return ""
	}
	dir := file[:end]
	if home != "" && norm(dir) == strings.TrimSuffix(norm(home), "/") {
		return ""
	}
	return dir
}
