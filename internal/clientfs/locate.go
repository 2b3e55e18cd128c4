package clientfs

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/sources"
)

// Location is one place a client may keep tool lists. Path is a glob
// when Glob is set (filepath.Glob syntax). Unverified marks a path
// inferred, not confirmed by the client's source or its maintainers
// (docs/sources.md says which and why).
type Location struct {
	Client     string
	Kind       string
	Path       string
	Glob       bool
	Unverified bool
}

// Locate lists every location checked for goos ("linux", "darwin",
// "windows") under the home directory home, in a fixed order. It does no
// I/O; Expand resolves the globs. On Windows the roaming and local
// application data folders are taken as home\AppData\Roaming and
// home\AppData\Local (LocateEnv reads APPDATA and LOCALAPPDATA instead).
func Locate(home, goos string) []Location { return LocateEnv(home, goos, nil) }

// LocateEnv is Locate with environment overrides: XDG_CONFIG_HOME and
// XDG_CACHE_HOME on Linux, APPDATA and LOCALAPPDATA on Windows. env may
// be nil.
func LocateEnv(home, goos string, env func(string) string) []Location {
	if env == nil {
		env = func(string) string { return "" }
	}
	sep := "/"
	if goos == "windows" {
		sep = `\`
	}
	join := func(parts ...string) string {
		out := strings.TrimRight(parts[0], `/\`)
		for _, p := range parts[1:] {
			out += sep + p
		}
		return out
	}
	abs := func(v string) string {
		if goos == "windows" {
			if len(v) >= 3 && v[1] == ':' && (v[2] == '\\' || v[2] == '/') || strings.HasPrefix(v, `\\`) {
				return v
			}
			return ""
		}
		if strings.HasPrefix(v, "/") {
			return v
		}
		return ""
	}
	or := func(v, def string) string {
		if a := abs(v); a != "" {
			return a
		}
		return def
	}
	var config, cache, logs string // per-OS roots
	switch goos {
	case "darwin":
		config = join(home, "Library", "Application Support")
		cache = join(home, "Library", "Caches")
		logs = join(home, "Library", "Logs")
	case "windows":
		config = or(env("APPDATA"), join(home, "AppData", "Roaming"))
		cache = or(env("LOCALAPPDATA"), join(home, "AppData", "Local"))
	default:
		config = or(env("XDG_CONFIG_HOME"), join(home, ".config"))
		cache = or(env("XDG_CACHE_HOME"), join(home, ".cache"))
	}
	var out []Location
	add := func(client, kind, path string, glob, unverified bool) {
		out = append(out, Location{Client: client, Kind: kind, Path: path, Glob: glob, Unverified: unverified})
	}
	// VS Code and Insiders: the default profile, other profiles, each
	// workspace (storageMain.ts: <globalStorageHome>/state.vscdb,
	// <workspaceStorageHome>/<id>/state.vscdb).
	for _, app := range []struct{ client, dir string }{
		{sources.ClientVSCode, "Code"}, {sources.ClientVSCodeInsiders, "Code - Insiders"},
	} {
		user := join(config, app.dir, "User")
		add(app.client, sources.KindVSCodeToolCache, join(user, "globalStorage", "state.vscdb"), false, false)
		add(app.client, sources.KindVSCodeToolCache, join(user, "profiles", "*", "globalStorage", "state.vscdb"), true, false)
		add(app.client, sources.KindVSCodeToolCache, join(user, "workspaceStorage", "*", "state.vscdb"), true, false)
	}
	// Claude Desktop: MCP logs and extension manifests.
	switch goos {
	case "darwin":
		add(sources.ClientClaudeDesktop, sources.KindClaudeDesktopLog, join(logs, "Claude", "mcp*.log"), true, false)
	case "windows":
		add(sources.ClientClaudeDesktop, sources.KindClaudeDesktopLog, join(config, "Claude", "logs", "mcp*.log"), true, false)
	default:
		add(sources.ClientClaudeDesktop, sources.KindClaudeDesktopLog, join(config, "Claude", "logs", "mcp*.log"), true, true)
	}
	add(sources.ClientClaudeDesktop, sources.KindMCPBManifest, join(config, "Claude", "Claude Extensions", "*", "manifest.json"), true, goos == "linux")
	// Cursor: per-project and global mcps/ folders (community evidence).
	add(sources.ClientCursor, sources.KindCursorMCPs, join(home, ".cursor", "projects", "*", "mcps"), true, true)
	add(sources.ClientCursor, sources.KindCursorMCPs, join(home, ".cursor", "mcps"), false, true)
	// Claude Code: per-project, per-server logs in the cache folder
	// (env-paths "claude-cli" with the "-nodejs" suffix).
	switch goos {
	case "windows":
		add(sources.ClientClaudeCode, sources.KindClaudeCodeLog, join(cache, "claude-cli-nodejs", "Cache", "*", "mcp-logs-*"), true, true)
	case "darwin":
		add(sources.ClientClaudeCode, sources.KindClaudeCodeLog, join(cache, "claude-cli-nodejs", "*", "mcp-logs-*"), true, false)
	default:
		add(sources.ClientClaudeCode, sources.KindClaudeCodeLog, join(cache, "claude-cli-nodejs", "*", "mcp-logs-*"), true, false)
	}
	return out
}

// Expand resolves a location to the existing paths it names, sorted.
func Expand(loc Location) []string {
	if !loc.Glob {
		if _, err := os.Lstat(loc.Path); err != nil {
			return nil
		}
		return []string{loc.Path}
	}
	m, _ := filepath.Glob(loc.Path)
	return m
}
