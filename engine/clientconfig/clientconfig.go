// Package clientconfig reads the files in which MCP clients (Claude
// Desktop, Claude Code, Cursor, Windsurf, VS Code, Copilot CLI, Cline, Roo
// Code, Continue, Zed, Gemini CLI, Codex, OpenCode, Kiro, Amazon Q) keep
// their server lists, and turns each into an engine.Inventory whose servers
// carry the launch line (transport, command, args, URL, env and header key
// names) but no tools: a client config says how to start a server, not
// what the server offers.
//
// Like the rest of the engine it is pure: Parse takes the file's name and
// bytes, Candidates takes the target OS, an environment lookup and the home
// directory, and neither touches the file system, the environment or the
// clock.
//
// # Formats
//
// Parse reads JSON and JSONC (comments and trailing commas, through
// github.com/tailscale/hujson, whose standardised output keeps every byte
// offset, then through the engine's strict jsonv parser: duplicate keys,
// nesting deeper than engine.MaxDepth, invalid UTF-8 and lone surrogates
// are errors with a line, a column and a JSON path), Continue's YAML
// (duplicate keys, aliases and merge keys are errors) and Codex's TOML
// (duplicate keys are errors, as the TOML spec says).
//
// With FormatAuto the format comes from the file name first: *.toml is
// Codex, *.yaml and *.yml are Continue, opencode.json(c) is OpenCode, a
// settings.json under a VS Code user directory (Code/User, Code -
// Insiders/User, their profiles) or .vscode is VS Code settings, a
// settings.json under zed or .zed is Zed, anything else is JSON. A JSON
// document is then read by the keys it holds, in file order:
//
//   - "mcpServers": an object of name → entry (Claude Desktop, Claude Code,
//     Cursor, Windsurf, Copilot CLI, Cline, Roo Code, Gemini CLI, Kiro,
//     Amazon Q); for Continue also a list of entries with "name";
//   - "servers": an object of name → entry (VS Code mcp.json; "inputs" is
//     ignored); a LIST under "servers" is DescriptorPin's own inventory, and
//     Parse returns FormatInventory with an error wrapping ErrInventory so
//     the caller reads it with inventory.Parse;
//   - "mcp": VS Code settings when it holds a "servers" object that is not
//     itself a server entry (no "type", "command" or "url"), OpenCode
//     otherwise;
//   - "mcp.servers" (a dotted top-level key): VS Code settings;
//   - "context_servers": Zed, flat (command/args/env or url/headers) or
//     legacy ({"command": {"path", "args", "env"}, "settings": {}});
//   - "projects": Claude Code's ~/.claude.json, whose
//     projects.<dir>.mcpServers hold project servers;
//   - "experimental.modelContextProtocolServers": Continue's legacy
//     config.json list of {"transport": {...}}, whose entries have no name
//     and are named for their place: "modelContextProtocolServers[0]"
//     (or their "name", when one is written).
//
// Continue's YAML holds "mcpServers" as a list of entries named by "name"
// (a hub reference "uses: owner/block" names itself), or the older map; a
// workspace file under .continue/mcpServers/ may also be a bare list or a
// single entry. Codex's TOML holds [mcp_servers.<name>] tables.
//
// A file whose name is not a known client's and that holds none of these
// keys is an error naming what was looked for. A known client's file (or a
// file read with a specific Format) without them simply declares no
// servers: a VS Code settings.json usually has no MCP section. An empty
// file, or one holding only whitespace and comments, declares no servers.
//
// # Servers
//
// Transport is derived, in this order: a "type" the client writes ("stdio"
// and OpenCode's "local" → stdio; "http" → http; "streamable-http" and
// Cline's "streamableHttp" → streamable-http; "sse" → sse; "ws" and
// "websocket" → ws; OpenCode's "remote" → ws for a ws:// or wss:// URL,
// http otherwise; any other word is kept as written, so the engine reports
// it as a transport it does not know); without a type, a non-empty command
// → stdio; Gemini's "httpUrl" → http; a ws:// or wss:// URL → ws; Gemini's
// "url" → sse; a Codex "url" → http; a Cursor "url" → sse when its path
// ends in /sse and streamable-http otherwise, as Cursor connects;
// anything else → unknown. URL fields
// are "url", "serverUrl", "httpUrl", "Url", "URL" and "serverURL"; two of
// them in one entry are an error, since clients disagree on which wins.
// Disabled is set by "disabled": true or "enabled": false. Server.Path is
// the entry's JSON path in the engine's form ($.mcpServers.files,
// $.servers["my server"], $.mcpServers[0] for a list, $.mcp_servers.docs in
// TOML) and Server.Line its line. Wrong types (args that are not a list of
// strings, env that is not an object of strings, a command that is not a
// string) are InputErrors naming that path.
//
// Env and header values are kept in memory only (engine.Server.Env,
// Headers); no error message ever quotes one. Codex's
// bearer_token_env_var and env_http_headers become header keys whose
// values are references ("Bearer ${VAR}"), not secrets.
//
// # Project servers in ~/.claude.json
//
// Servers under the top-level "mcpServers" keep their name and have scope
// "user". A server under projects.<dir>.mcpServers is named
// "<name>@<dir>", with <dir> exactly as the key writes it (for example
// "files@/home/u/repo"), has scope "project" and the path
// $.projects["/home/u/repo"].mcpServers.files, so the same name at the top
// level and in two projects gives three distinct servers. The rule is the
// same in every file that has a projects section. Names are unique within
// one Inventory: should two servers still end up with the same name (only
// possible when a written name itself contains "@<dir>", or when VS Code's
// "mcp" and "mcp.servers" both define it), Parse fails with an InputError
// naming both paths rather than merge them. ProjectDirs lists the project
// directories such a file names (with or without servers), so a caller can
// look for each project's own files with ProjectCandidates.
//
// A project's own files (.mcp.json, .cursor/mcp.json, .vscode/mcp.json and
// the rest ProjectCandidates lists) name their servers the same way,
// "<name>@<project dir>" (ProjectDir; Options.Abs gives the absolute path
// of a file named relatively), so two projects that each define
// "playwright" give two servers, and a project's .mcp.json and its
// projects entry in ~/.claude.json, which Claude Code itself merges by
// name, give one.
//
// # Discovery
//
// Candidates lists, without touching the file system, every user, plugin
// and managed place the known clients read on a target OS, honouring
// XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, OPENCODE_CONFIG, APPDATA,
// LOCALAPPDATA, USERPROFILE and ProgramData; places that need a directory
// listing (VS Code profiles, Claude Code plugins, Continue block files) are
// glob patterns the caller expands.
package clientconfig

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
)

// Format names a client config file format.
type Format string

// The formats Parse reads. FormatAuto (or "") detects the format from the
// file name and content.
const (
	FormatAuto           Format = "auto"
	FormatJSON           Format = "json"
	FormatVSCodeSettings Format = "vscode-settings"
	FormatZed            Format = "zed"
	FormatContinueYAML   Format = "continue-yaml"
	FormatCodexTOML      Format = "codex-toml"
	FormatOpenCode       Format = "opencode"
	FormatInventory      Format = "inventory"
)

// Formats lists every Format, FormatAuto first.
func Formats() []Format {
	return []Format{FormatAuto, FormatJSON, FormatVSCodeSettings, FormatZed, FormatContinueYAML, FormatCodexTOML, FormatOpenCode, FormatInventory}
}

// ParseFormat reads a format name as a flag or a config file writes it.
func ParseFormat(s string) (Format, error) {
	if s == "" {
		return FormatAuto, nil
	}
	for _, f := range Formats() {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, 0, 8)
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown client config format %q (want one of %s)", s, strings.Join(names, ", "))
}

// ErrInventory is wrapped by the error Parse returns for a DescriptorPin
// inventory ("servers" is a list): read such a file with
// inventory.Parse.
var ErrInventory = errors.New("file is a DescriptorPin inventory, not a client config")

// notConfigMsg is the error for a file that fits no known shape.
const notConfigMsg = "not an MCP client config: no mcpServers, servers, mcp, mcp.servers, context_servers, projects.*.mcpServers or [mcp_servers] found"

// Options tell Parse what the caller already knows about the file.
type Options struct {
	// Format is the file's format; FormatAuto or "" detects it.
	Format Format
	// Client names the client ("cursor"); empty detects it from the path.
	Client string
	// Scope is "user", "project", "managed" or "plugin"; empty detects it
	// from the path, "user" when the path does not say.
	Scope string
	// Home is the user's home directory, used only to tell a user file
	// (~/.cursor/mcp.json) from a project one (<repo>/.cursor/mcp.json)
	// when Scope is empty. Without it such files are "user".
	Home string
	// Abs is the file's absolute path when file is not (a name given
	// relative to the working directory): the servers of a project file
	// are named "<name>@<project dir>" (ProjectDir), which needs it.
	Abs string
}

// ParseWith parses one MCP client config file. file is the name used for
// detection and in messages; opts says what the caller knows about it
// (the format, or FormatAuto, and the home directory). It returns the
// servers, the format it read, and an *engine.InputError for any problem.
func ParseWith(file string, data []byte, opts Options) (*engine.Inventory, Format, error) {
	hint := opts.Format
	if hint == "" {
		hint = FormatAuto
	}
	if len(data) > engine.MaxFileBytes {
		return nil, hint, &engine.InputError{File: file, Msg: fmt.Sprintf("file is larger than the %d MiB cap", engine.MaxFileBytes>>20)}
	}
	if _, err := ParseFormat(string(hint)); err != nil {
		return nil, hint, &engine.InputError{File: file, Msg: err.Error()}
	}
	if hint == FormatInventory {
		return nil, FormatInventory, &engine.InputError{File: file, Path: "$", Msg: ErrInventory.Error() + "; read it with inventory.Parse", Err: ErrInventory}
	}
	client := opts.Client
	if client == "" {
		client = ClientForPath(file)
	}
	scope := opts.Scope
	if scope == "" {
		scope = ScopeForPath(file, opts.Home)
	}
	eff := hint
	if eff == FormatAuto {
		eff = formatForPath(file)
	}
	p := &parser{file: file, client: client, scope: scope, strict: client == "generic" && (hint == FormatAuto || hint == FormatJSON)}
	var (
		root *node
		err  error
	)
	switch eff {
	case FormatContinueYAML:
		root, err = p.loadYAML(data)
	case FormatCodexTOML:
		root, err = p.loadTOML(data)
	default:
		root, err = p.loadJSON(data)
		if err != nil && hint == FormatAuto && !hasJSONExt(file) {
			// A file with no telling name may be TOML or YAML.
			if alt, altFmt, ok := p.tryOther(data); ok {
				root, err, eff = alt, nil, altFmt
			}
		}
	}
	if err != nil {
		return nil, eff, err
	}
	inv := &engine.Inventory{File: file}
	if root == nil { // empty document
		if eff == FormatAuto {
			eff = FormatJSON
		}
		return inv, eff, nil
	}
	secs, got, err := p.sections(root, eff)
	if err != nil {
		return nil, got, err
	}
	for i := range secs {
		if err := p.collect(&secs[i], inv); err != nil {
			return nil, got, err
		}
	}
	abs := opts.Abs
	if abs == "" {
		abs = file
	}
	if dir := ProjectDir(abs, opts.Home); dir != "" && scope == "project" {
		for _, s := range inv.Servers {
			s.Name += "@" + dir
		}
	}
	if err := p.unique(inv); err != nil {
		return nil, got, err
	}
	return inv, got, nil
}

// tryOther reads data as TOML or YAML when it plainly is one of them.
func (p *parser) tryOther(data []byte) (*node, Format, bool) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] == '{' || t[0] == '[' && !bytes.Contains(t, []byte("[mcp_servers")) {
		return nil, "", false
	}
	if bytes.Contains(data, []byte("mcp_servers")) {
		q := *p
		q.starts = nil
		if root, err := q.loadTOML(data); err == nil {
			*p = q
			return root, FormatCodexTOML, true
		}
	}
	if bytes.Contains(data, []byte("mcpServers:")) {
		q := *p
		q.starts = nil
		if root, err := q.loadYAML(data); err == nil {
			*p = q
			return root, FormatContinueYAML, true
		}
	}
	return nil, "", false
}

func hasJSONExt(file string) bool {
	b := strings.ToLower(base(file))
	return strings.HasSuffix(b, ".json") || strings.HasSuffix(b, ".jsonc")
}

// unique fails when two servers of the inventory share a name.
func (p *parser) unique(inv *engine.Inventory) error {
	seen := make(map[string]*engine.Server, len(inv.Servers))
	for _, s := range inv.Servers {
		if prev, ok := seen[s.Name]; ok {
			return &engine.InputError{File: p.file, Path: s.Path, Line: s.Line, Col: p.cols[s],
				Msg: fmt.Sprintf("server name %s is already used by %s; a reader keyed by name would merge them", q(s.Name), prev.Path)}
		}
		seen[s.Name] = s
	}
	return nil
}
