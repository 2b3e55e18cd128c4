// Package sources reads the tool lists MCP clients already keep on disk:
// VS Code's mcpToolCache, Claude Desktop's MCP logs, Cursor's mcps/ folders,
// Claude Code's mcp-logs JSONL files and Claude Desktop extension (MCPB)
// manifests. docs/sources.md says what each file holds, how sure we are of
// its format and what is never read.
//
// Every reader is pure: it takes bytes, an fs.FS or a state value and
// returns values. The I/O (SQLite snapshots, tail reads, incremental log
// reads, the directory walk) lives in internal/clientfs.
//
// Logs carry tool-call arguments and results, which can hold secrets. The
// log readers look only at tools/list (and initialize) exchanges, keep
// nothing else, and their errors name a place (file, byte offset, JSON
// path) but never quote the line.
package sources

import (
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// Client names, as engine.Server.Client spells them.
const (
	ClientVSCode         = "vscode"
	ClientVSCodeInsiders = "vscode-insiders"
	ClientClaudeDesktop  = "claude-desktop"
	ClientCursor         = "cursor"
	ClientClaudeCode     = "claude-code"
)

// Kinds of source.
const (
	KindVSCodeToolCache  = "vscode-tool-cache"  // state.vscdb, key mcpToolCache
	KindClaudeDesktopLog = "claude-desktop-log" // mcp.log, mcp-server-<name>.log
	KindCursorMCPs       = "cursor-mcps"        // <dir>/mcps/<server>/...
	KindClaudeCodeLog    = "claude-code-log"    // mcp-logs-<server>/*.jsonl
	KindMCPBManifest     = "mcpb-manifest"      // Claude Extensions/<id>/manifest.json
)

// Caps on what one source may make a reader hold.
const (
	// MaxTools is the most tools one server may list in one source.
	MaxTools = 10000
	// MaxInstructions is the longest server instructions text kept.
	MaxInstructions = 1 << 20
)

// Source is one place a client keeps tool lists.
type Source struct {
	Client string // ClientVSCode, ...
	Kind   string // KindVSCodeToolCache, ...
	Path   string // the file or folder, as the caller names it
}

// Server is one server's tool list as a client received (or, for MCPB, as
// a publisher declared) it.
type Server struct {
	// Name is the server's name as the client config names it. Servers of
	// a VS Code workspace are project-qualified, "name@<project dir>", as
	// engine/clientconfig names workspace-scoped servers.
	Name   string
	Client string
	// Project is the project directory the source ties the server to,
	// when the source says so but cannot say whether the config entry is
	// project-scoped (Claude Code's logs record the session's cwd). Name
	// is then unqualified; Qualify makes the project-scoped name.
	Project string
	// Instructions is the server's initialize instructions, model-visible
	// text, when the source keeps it ("" otherwise).
	Instructions string
	// ReceivedAt is when the client received the list, as the source
	// wrote it (a log line's timestamp); "" when unknown.
	ReceivedAt string
	// Tools are the raw MCP Tool objects in the order received.
	Tools []jsonv.Value
}

// Qualify returns the project-scoped name engine/clientconfig uses for a
// server declared by a project: "name@<project dir>".
func Qualify(name, project string) string {
	if project == "" {
		return name
	}
	return name + "@" + project
}

// Mismatch is a folder or file that is where a source's layout says tool
// lists live but that does not have the expected shape. It is reported,
// never silently skipped and never guessed at.
type Mismatch struct {
	Path   string
	Reason string
}
