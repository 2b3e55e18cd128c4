package clientconfig

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
)

// Candidate is one place a client may keep its server list. Candidates
// lists places, not files: most will not exist on a given machine, and a
// missing file is no error. An Unverified place comes from one third-party
// source only.
type Candidate struct {
	Client     string
	Path       string // in the target OS's own form (backslashes on Windows)
	Scope      string // "user", "project", "managed" or "plugin"
	Format     Format
	Unverified bool
	// Glob marks a Path holding a pattern the caller expands: "*" stands
	// for one path element, "**" for any number of them (zero included).
	Glob bool
}

// Options returns the options to parse the candidate's file with.
func (c Candidate) Options() Options {
	return Options{Format: c.Format, Client: c.Client, Scope: c.Scope}
}

// Candidates lists every user-level, plugin and managed place in which
// the clients DescriptorPin knows keep MCP servers on goos ("linux",
// "darwin", "windows"; other Unixes are read as linux). env looks up an
// environment variable (nil reads none); home is the user's home
// directory. Variables honoured: XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR,
// CODEX_HOME and OPENCODE_CONFIG everywhere; APPDATA, LOCALAPPDATA,
// USERPROFILE and ProgramData on Windows. A variable that is not an
// absolute path is ignored (a relative one would make the scan depend on
// the working directory). Without a home, only places that do not depend
// on it are listed. The order is fixed and the list has no duplicates.
func Candidates(goos string, env func(string) string, home string) []Candidate {
	d := newDiscoverer(goos, env, home)
	d.claudeDesktop()
	d.claudeCode()
	d.add("cursor", "user", FormatJSON, false, d.profile, ".cursor", "mcp.json")
	d.add("windsurf", "user", FormatJSON, false, d.profile, ".codeium", "windsurf", "mcp_config.json")
	d.vscode()
	d.add("copilot-cli", "user", FormatJSON, false, d.home, ".copilot", "mcp-config.json")
	d.extensions()
	d.continueDev()
	d.zed()
	d.gemini()
	d.codex()
	d.opencode()
	d.add("kiro", "user", FormatJSON, false, d.home, ".kiro", "settings", "mcp.json")
	d.add("amazon-q", "user", FormatJSON, false, d.home, ".aws", "amazonq", "mcp.json")
	return d.out
}

// ProjectCandidates lists the project-scope files a repository at
// projectDir may hold. The .continue/mcpServers entries are globs.
func ProjectCandidates(projectDir, goos string) []Candidate {
	d := newDiscoverer(goos, nil, "")
	if !d.abs(projectDir) {
		return nil
	}
	dir := projectDir
	for _, c := range []struct {
		client string
		format Format
		glob   bool
		unver  bool
		elems  []string
	}{
		{"claude-code", FormatJSON, false, false, []string{".mcp.json"}},
		{"cursor", FormatJSON, false, false, []string{".cursor", "mcp.json"}},
		{"vscode", FormatJSON, false, false, []string{".vscode", "mcp.json"}},
		{"vscode", FormatVSCodeSettings, false, false, []string{".vscode", "settings.json"}},
		{"gemini-cli", FormatJSON, false, false, []string{".gemini", "settings.json"}},
		{"codex", FormatCodexTOML, false, false, []string{".codex", "config.toml"}},
		{"zed", FormatZed, false, false, []string{".zed", "settings.json"}},
		{"kiro", FormatJSON, false, false, []string{".kiro", "settings", "mcp.json"}},
		{"amazon-q", FormatJSON, false, false, []string{".amazonq", "mcp.json"}},
		{"roo-code", FormatJSON, false, true, []string{".roo", "mcp.json"}},
		{"opencode", FormatOpenCode, false, false, []string{"opencode.json"}},
		{"opencode", FormatOpenCode, false, false, []string{"opencode.jsonc"}},
		{"continue", FormatContinueYAML, true, false, []string{".continue", "mcpServers", "*.yaml"}},
		{"continue", FormatContinueYAML, true, false, []string{".continue", "mcpServers", "*.yml"}},
		{"continue", FormatJSON, true, false, []string{".continue", "mcpServers", "*.json"}},
	} {
		d.push(Candidate{Client: c.client, Path: d.join(dir, c.elems...), Scope: "project", Format: c.format, Unverified: c.unver, Glob: c.glob})
	}
	return d.out
}

// ProjectDirs returns the project directories named in Claude Code's
// ~/.claude.json (the keys of "projects"), sorted, so the caller can look
// for each project's own files (ProjectCandidates). A file without
// "projects" gives none.
func ProjectDirs(file string, data []byte) ([]string, error) {
	if len(data) > engine.MaxFileBytes {
		return nil, &engine.InputError{File: file, Msg: fmt.Sprintf("file is larger than the %d MiB cap", engine.MaxFileBytes>>20)}
	}
	p := &parser{file: file}
	root, err := p.loadJSON(data)
	if err != nil || root == nil {
		return nil, err
	}
	if root.kind != kObject {
		return nil, p.errAt(root, "$", "client config root is not an object (got %s)", root.typeName())
	}
	pv, ok := root.get("projects")
	if !ok {
		return nil, nil
	}
	if pv.kind != kObject {
		return nil, p.errAt(pv, "$.projects", "'projects' must be an object of project directories, got %s", pv.typeName())
	}
	out := append([]string(nil), pv.keys...)
	sort.Strings(out)
	return out, nil
}

type discoverer struct {
	goos    string
	windows bool
	env     func(string) string
	home    string // "~": empty when unknown
	profile string // %USERPROFILE% on Windows, home elsewhere
	out     []Candidate
	seen    map[string]bool
}

func newDiscoverer(goos string, env func(string) string, home string) *discoverer {
	d := &discoverer{goos: goos, windows: goos == "windows", env: env, seen: map[string]bool{}}
	if d.env == nil {
		d.env = func(string) string { return "" }
	}
	if d.windows {
		up := d.absEnv("USERPROFILE")
		if !d.abs(home) {
			home = up
		}
		if up == "" {
			up = home
		}
		d.home, d.profile = home, up
	} else {
		if !d.abs(home) {
			home = ""
		}
		d.home, d.profile = home, home
	}
	return d
}

// abs reports whether p is an absolute path on the target OS.
func (d *discoverer) abs(p string) bool {
	if !d.windows {
		return strings.HasPrefix(p, "/")
	}
	if strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//") {
		return len(p) > 2
	}
	return len(p) >= 3 && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z') && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// absEnv reads an environment variable holding a directory, or "".
func (d *discoverer) absEnv(names ...string) string {
	for _, n := range names {
		if v := d.env(n); d.abs(v) {
			return v
		}
	}
	return ""
}

// join joins path elements for the target OS. elems use "/" and may hold
// glob patterns.
func (d *discoverer) join(dir string, elems ...string) string {
	if !d.windows {
		return path.Join(append([]string{dir}, elems...)...)
	}
	out := strings.ReplaceAll(dir, "/", `\`)
	for _, e := range elems {
		e = strings.Trim(strings.ReplaceAll(e, "/", `\`), `\`)
		if e == "" {
			continue
		}
		out = strings.TrimRight(out, `\`) + `\` + e
	}
	return out
}

func (d *discoverer) push(c Candidate) {
	if c.Path == "" || d.seen[c.Path] {
		return
	}
	d.seen[c.Path] = true
	d.out = append(d.out, c)
}

// add lists dir/elems when dir is known.
func (d *discoverer) add(client, scope string, f Format, unverified bool, dir string, elems ...string) {
	if dir == "" {
		return
	}
	d.push(Candidate{Client: client, Path: d.join(dir, elems...), Scope: scope, Format: f, Unverified: unverified})
}

func (d *discoverer) glob(client, scope string, f Format, unverified bool, dir string, elems ...string) {
	if dir == "" {
		return
	}
	d.push(Candidate{Client: client, Path: d.join(dir, elems...), Scope: scope, Format: f, Unverified: unverified, Glob: true})
}

// appSupport is ~/Library/Application Support on macOS.
func (d *discoverer) appSupport() string {
	if d.home == "" {
		return ""
	}
	return d.join(d.home, "Library", "Application Support")
}

// xdgConfig is $XDG_CONFIG_HOME or ~/.config.
func (d *discoverer) xdgConfig() string {
	if v := d.absEnv("XDG_CONFIG_HOME"); v != "" {
		return v
	}
	if d.home == "" {
		return ""
	}
	return d.join(d.home, ".config")
}

func (d *discoverer) appData() string {
	if v := d.absEnv("APPDATA"); v != "" {
		return v
	}
	if d.profile == "" {
		return ""
	}
	return d.join(d.profile, "AppData", "Roaming")
}

func (d *discoverer) localAppData() string {
	if v := d.absEnv("LOCALAPPDATA"); v != "" {
		return v
	}
	if d.profile == "" {
		return ""
	}
	return d.join(d.profile, "AppData", "Local")
}

func (d *discoverer) programData() string {
	if v := d.absEnv("ProgramData", "PROGRAMDATA", "ALLUSERSPROFILE"); v != "" {
		return v
	}
	return `C:\ProgramData`
}

// userDataDir is the Electron user-data directory of an app (VS Code,
// Cursor): the parent of its "User" directory.
func (d *discoverer) userDataDir(app string) string {
	var dir string
	switch d.goos {
	case "darwin":
		dir = d.appSupport()
	case "windows":
		dir = d.appData()
	default:
		dir = d.xdgConfig()
	}
	if dir == "" {
		return ""
	}
	return d.join(dir, app)
}

func (d *discoverer) claudeDesktop() {
	const f = "claude_desktop_config.json"
	switch d.goos {
	case "darwin":
		d.add("claude-desktop", "user", FormatJSON, false, d.appSupport(), "Claude", f)
	case "windows":
		d.add("claude-desktop", "user", FormatJSON, false, d.appData(), "Claude", f)
		d.add("claude-desktop", "user", FormatJSON, false, d.localAppData(), "Packages", "Claude_pzs8sxrjxfjjc", "LocalCache", "Roaming", "Claude", f)
	default:
		d.add("claude-desktop", "user", FormatJSON, true, d.xdgConfig(), "Claude", f)
	}
}

func (d *discoverer) claudeCode() {
	// CLAUDE_CONFIG_DIR replaces both ~/.claude.json's directory and ~/.claude.
	if dir := d.absEnv("CLAUDE_CONFIG_DIR"); dir != "" {
		d.add("claude-code", "user", FormatJSON, false, dir, ".claude.json")
		d.glob("claude-code", "plugin", FormatJSON, false, dir, "plugins", "**", ".mcp.json")
	} else {
		d.add("claude-code", "user", FormatJSON, false, d.home, ".claude.json")
		d.glob("claude-code", "plugin", FormatJSON, false, d.home, ".claude", "plugins", "**", ".mcp.json")
	}
	switch d.goos {
	case "darwin":
		d.add("claude-code", "managed", FormatJSON, false, "/Library/Application Support/ClaudeCode", "managed-mcp.json")
	case "windows":
		d.add("claude-code", "managed", FormatJSON, false, `C:\Program Files\ClaudeCode`, "managed-mcp.json")
	default:
		d.add("claude-code", "managed", FormatJSON, false, "/etc/claude-code", "managed-mcp.json")
	}
}

func (d *discoverer) vscode() {
	for _, app := range []string{"Code", "Code - Insiders"} {
		ud := d.userDataDir(app)
		if ud == "" {
			continue
		}
		d.add("vscode", "user", FormatJSON, false, ud, "User", "mcp.json")
		d.add("vscode", "user", FormatVSCodeSettings, false, ud, "User", "settings.json")
		d.glob("vscode", "user", FormatJSON, false, ud, "User", "profiles", "*", "mcp.json")
		d.glob("vscode", "user", FormatVSCodeSettings, false, ud, "User", "profiles", "*", "settings.json")
	}
}

// extensions lists Cline's and Roo Code's settings under the VS Code,
// VS Code Insiders and Cursor user directories, and the Cline CLI's.
func (d *discoverer) extensions() {
	for _, ext := range []struct{ client, id, file string }{
		{"cline", "saoudrizwan.claude-dev", "cline_mcp_settings.json"},
		{"roo-code", "rooveterinaryinc.roo-cline", "mcp_settings.json"},
	} {
		for _, app := range []string{"Code", "Code - Insiders", "Cursor"} {
			ud := d.userDataDir(app)
			d.add(ext.client, "user", FormatJSON, false, ud, "User", "globalStorage", ext.id, "settings", ext.file)
		}
		if ext.client == "cline" {
			d.add("cline", "user", FormatJSON, false, d.home, ".cline", "data", "settings", "cline_mcp_settings.json")
		}
	}
}

func (d *discoverer) continueDev() {
	d.add("continue", "user", FormatContinueYAML, false, d.profile, ".continue", "config.yaml")
	d.add("continue", "user", FormatJSON, false, d.profile, ".continue", "config.json")
}

func (d *discoverer) zed() {
	switch d.goos {
	case "darwin":
		d.add("zed", "user", FormatZed, false, d.home, ".config", "zed", "settings.json")
	case "windows":
		d.add("zed", "user", FormatZed, true, d.appData(), "Zed", "settings.json")
	default:
		d.add("zed", "user", FormatZed, false, d.xdgConfig(), "zed", "settings.json")
	}
}

func (d *discoverer) gemini() {
	d.add("gemini-cli", "user", FormatJSON, false, d.home, ".gemini", "settings.json")
	switch d.goos {
	case "darwin":
		d.add("gemini-cli", "managed", FormatJSON, false, "/Library/Application Support/GeminiCli", "settings.json")
	case "windows":
		d.add("gemini-cli", "managed", FormatJSON, false, d.programData(), "gemini-cli", "settings.json")
	default:
		d.add("gemini-cli", "managed", FormatJSON, false, "/etc/gemini-cli", "settings.json")
	}
}

func (d *discoverer) codex() {
	if dir := d.absEnv("CODEX_HOME"); dir != "" {
		d.add("codex", "user", FormatCodexTOML, false, dir, "config.toml")
	} else {
		d.add("codex", "user", FormatCodexTOML, false, d.home, ".codex", "config.toml")
	}
	switch d.goos {
	case "darwin":
	case "windows":
		d.add("codex", "managed", FormatCodexTOML, false, d.programData(), "OpenAI", "Codex", "config.toml")
	default:
		d.add("codex", "managed", FormatCodexTOML, false, "/etc/codex", "config.toml")
	}
}

func (d *discoverer) opencode() {
	dirs := []struct {
		dir   string
		unver bool
	}{{d.xdgConfig(), d.windows}}
	if d.windows {
		dirs = append(dirs, struct {
			dir   string
			unver bool
		}{d.localAppData(), true})
	}
	for _, x := range dirs {
		d.add("opencode", "user", FormatOpenCode, x.unver, x.dir, "opencode", "opencode.json")
		d.add("opencode", "user", FormatOpenCode, x.unver, x.dir, "opencode", "opencode.jsonc")
	}
	if f := d.absEnv("OPENCODE_CONFIG"); f != "" {
		d.add("opencode", "user", FormatOpenCode, false, f)
	}
}
