package clientconfig

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
)

// errCase is a document Parse must refuse, and what the refusal says.
type errCase struct {
	name  string
	file  string
	hint  Format
	doc   string
	msg   string // substring of the message
	path  string // exact JSON path, when not empty
	line  int    // exact line, when not 0
	noSub string // must not appear anywhere in the error
}

func runErrCases(t *testing.T, cases []errCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hint := tc.hint
			if hint == "" {
				hint = FormatAuto
			}
			inv, _, err := Parse(tc.file, []byte(tc.doc), hint)
			if err == nil {
				t.Fatalf("no error; servers: %d", len(inv.Servers))
			}
			ie := asInputError(t, err)
			if ie.File != tc.file {
				t.Errorf("File = %q, want %q", ie.File, tc.file)
			}
			if !strings.Contains(ie.Msg, tc.msg) {
				t.Errorf("message %q does not contain %q", ie.Msg, tc.msg)
			}
			if tc.path != "" && ie.Path != tc.path {
				t.Errorf("path = %q, want %q (%v)", ie.Path, tc.path, err)
			}
			if tc.line != 0 && ie.Line != tc.line {
				t.Errorf("line = %d, want %d (%v)", ie.Line, tc.line, err)
			}
			if tc.noSub != "" && strings.Contains(err.Error(), tc.noSub) {
				t.Errorf("error shows %q: %v", tc.noSub, err)
			}
		})
	}
}

func TestParseRejectsDuplicateKeys(t *testing.T) {
	runErrCases(t, []errCase{
		{name: "json server twice", file: "/home/u/.cursor/mcp.json",
			doc: "{\"mcpServers\": {\n\"a\": {\"command\": \"x\"},\n\"a\": {\"command\": \"y\"}}}",
			msg: `duplicate key "a" (first at line 2)`, path: "$.mcpServers.a", line: 3},
		{name: "json field twice", file: "/home/u/.cursor/mcp.json",
			doc: `{"mcpServers": {"a": {"command": "x", "command": "y"}}}`,
			msg: `duplicate key "command"`, path: "$.mcpServers.a.command"},
		{name: "jsonc key twice after comments", file: "/home/u/.config/Code/User/mcp.json",
			doc: "// c\n{\"servers\": {\n  /* b */ \"a\": {\"command\": \"x\",},\n  \"a\": {\"command\": \"y\",},\n},}\n",
			msg: `duplicate key "a" (first at line 3)`, path: "$.servers.a", line: 4},
		{name: "yaml key twice", file: "/home/u/.continue/config.yaml",
			doc: "mcpServers:\n  - name: a\n    command: x\n    command: y\n",
			msg: `duplicate key "command" (first at line 3)`, path: "$.mcpServers[0].command", line: 4},
		{name: "yaml top-level key twice", file: "/home/u/.continue/config.yaml",
			doc: "mcpServers: []\nmcpServers:\n  - name: a\n    command: x\n",
			msg: `duplicate key "mcpServers"`, line: 2},
		{name: "yaml list names twice", file: "/home/u/.continue/config.yaml",
			doc: "mcpServers:\n  - name: a\n    command: x\n  - name: a\n    command: y\n",
			msg: "server name 'a' is already used by $.mcpServers[0]", path: "$.mcpServers[1]", line: 4},
		{name: "toml table twice", file: "/home/u/.codex/config.toml",
			doc: "[mcp_servers.a]\ncommand = \"x\"\n\n[mcp_servers.a]\ncommand = \"y\"\n",
			msg: "already", line: 4},
		{name: "toml key twice", file: "/home/u/.codex/config.toml",
			doc: "[mcp_servers.a]\ncommand = \"x\"\ncommand = \"y\"\n",
			msg: "already defined", line: 3},
		{name: "vscode settings both shapes name one server", file: "/home/u/.config/Code/User/settings.json",
			doc: "{\"mcp\": {\"servers\": {\"a\": {\"command\": \"x\"}}},\n\"mcp.servers\": {\"a\": {\"command\": \"y\"}}}",
			msg: "server name 'a' is already used by $.mcp.servers.a", path: `$["mcp.servers"].a`, line: 2},
		{name: "project name made to collide", file: "/home/u/.claude.json",
			doc: `{"mcpServers": {"a@/r": {"command": "x"}}, "projects": {"/r": {"mcpServers": {"a": {"command": "y"}}}}}`,
			msg: "server name 'a@/r' is already used by $.mcpServers[\"a@/r\"]", path: `$.projects["/r"].mcpServers.a`},
		{name: "header twice in different case", file: "/home/u/.cursor/mcp.json",
			doc: `{"mcpServers": {"a": {"url": "https://x.test", "headers": {"Authorization": "v1", "authorization": "v2"}}}}`,
			msg: "header 'authorization' is set twice", noSub: "v1"},
		{name: "codex bearer and header", file: "/home/u/.codex/config.toml",
			doc: "[mcp_servers.a]\nurl = \"https://x.test\"\nbearer_token_env_var = \"T\"\nhttp_headers = { Authorization = \"Bearer v\" }\n",
			msg: "header 'Authorization' is set twice"},
	})
}

func TestParseRejectsAmbiguity(t *testing.T) {
	runErrCases(t, []errCase{
		{name: "two url spellings", file: "/home/u/.gemini/settings.json",
			doc: `{"mcpServers": {"a": {"url": "https://a.test/sse", "httpUrl": "https://a.test/mcp"}}}`,
			msg: "both 'url' and 'httpUrl' are present", path: "$.mcpServers.a.httpUrl"},
		{name: "opencode argv and args", file: "/home/u/repo/opencode.json",
			doc: `{"mcp": {"a": {"type": "local", "command": ["x", "y"], "args": ["z"]}}}`,
			msg: "both the command list and 'args'", path: "$.mcp.a.args"},
		{name: "zed legacy and flat env", file: "/home/u/.config/zed/settings.json",
			doc: `{"context_servers": {"a": {"command": {"path": "x", "env": {"A": "1"}}, "env": {"B": "2"}}}}`,
			msg: "both 'command.env' and 'env'", path: "$.context_servers.a.env"},
		{name: "opencode env and environment", file: "/home/u/repo/opencode.json",
			doc: `{"mcp": {"a": {"type": "local", "command": ["x"], "environment": {}, "env": {}}}}`,
			msg: "both 'environment' and 'env'"},
		{name: "yaml alias", file: "/home/u/.continue/config.yaml",
			doc: "base: &b\n  command: x\nmcpServers:\n  - name: a\n    <<: *b\n",
			msg: "merge keys"},
		{name: "yaml alias value", file: "/home/u/.continue/config.yaml",
			doc: "cmd: &c npx\nmcpServers:\n  - name: a\n    command: *c\n",
			msg: "aliases", path: "$.mcpServers[0].command", line: 4},
		{name: "yaml billion laughs", file: "/home/u/.continue/config.yaml",
			doc: "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
			msg: "aliases", line: 2},
		{name: "yaml two documents", file: "/home/u/.continue/config.yaml",
			doc: "mcpServers: []\n---\nmcpServers:\n  - name: a\n    command: x\n",
			msg: "more than one document"},
		{name: "yaml complex key", file: "/home/u/.continue/config.yaml",
			doc: "? [a, b]\n: c\n",
			msg: "a mapping key must be a plain value"},
	})
}

func TestParseRejectsWrongTypes(t *testing.T) {
	const f = "/home/u/.cursor/mcp.json"
	runErrCases(t, []errCase{
		{name: "args not a list", file: f, doc: `{"mcpServers": {"a": {"command": "x", "args": "-y pkg"}}}`,
			msg: "'args' must be a list of strings, got string", path: "$.mcpServers.a.args"},
		{name: "args item not a string", file: f, doc: `{"mcpServers": {"a": {"command": "x", "args": ["-p", 8080]}}}`,
			msg: "'args' must be a list of strings, got number in it", path: "$.mcpServers.a.args[1]"},
		{name: "env not an object", file: f, doc: `{"mcpServers": {"a": {"command": "x", "env": ["A=1"]}}}`,
			msg: "'env' must be an object of strings, got array", path: "$.mcpServers.a.env"},
		{name: "env value not a string", file: f, doc: `{"mcpServers": {"a": {"command": "x", "env": {"PORT": 8080}}}}`,
			msg: "'env' values must be strings, got number for 'PORT'", path: "$.mcpServers.a.env.PORT", noSub: "8080"},
		{name: "command not a string", file: f, doc: `{"mcpServers": {"a": {"command": ["npx", "x"]}}}`,
			msg: "'command' must be a string, got array", path: "$.mcpServers.a.command"},
		{name: "opencode command not a list", file: "/home/u/.config/opencode/opencode.json", doc: `{"mcp": {"a": {"type": "local", "command": {"x": 1}}}}`,
			msg: "'command' must be a list of strings, got object", path: "$.mcp.a.command"},
		{name: "opencode argv item", file: "/home/u/.config/opencode/opencode.json", doc: `{"mcp": {"a": {"type": "local", "command": ["npx", null]}}}`,
			msg: "'command' must be a list of strings, got null in it", path: "$.mcp.a.command[1]"},
		{name: "zed command number", file: "/home/u/.config/zed/settings.json", doc: `{"context_servers": {"a": {"command": 1}}}`,
			msg: "'command' must be a string or an object with 'path', got number"},
		{name: "url not a string", file: f, doc: `{"mcpServers": {"a": {"serverUrl": 1}}}`,
			msg: "'serverUrl' must be a string, got number", path: "$.mcpServers.a.serverUrl"},
		{name: "type not a string", file: f, doc: `{"mcpServers": {"a": {"type": true}}}`,
			msg: "'type' must be a string, got boolean", path: "$.mcpServers.a.type"},
		{name: "disabled not a boolean", file: f, doc: `{"mcpServers": {"a": {"command": "x", "disabled": "yes"}}}`,
			msg: "'disabled' must be true or false, got string", path: "$.mcpServers.a.disabled"},
		{name: "header value not a string", file: f, doc: `{"mcpServers": {"a": {"url": "https://x.test", "headers": {"X-Key": false}}}}`,
			msg: "'headers' values must be strings, got boolean for 'X-Key'", path: "$.mcpServers.a.headers.X-Key"},
		{name: "server entry not an object", file: f, doc: `{"mcpServers": {"a": "npx -y pkg"}}`,
			msg: "server 'a' entry must be an object, got string", path: "$.mcpServers.a"},
		{name: "servers not an object", file: f, doc: `{"mcpServers": "none"}`,
			msg: "servers must be an object of name → entry, got string", path: "$.mcpServers"},
		{name: "mcpServers list outside Continue", file: f, doc: `{"mcpServers": [{"name": "a", "command": "x"}]}`,
			msg: "got array", path: "$.mcpServers"},
		{name: "empty server name", file: f, doc: `{"mcpServers": {"": {"command": "x"}}}`,
			msg: "server name is empty"},
		{name: "root not an object", file: f, doc: `["a"]`,
			msg: "client config root is not an object (got array)", path: "$"},
		{name: "continue entry without a name", file: "/home/u/.continue/config.yaml", doc: "mcpServers:\n  - command: x\n",
			msg: "server entry has no name", path: "$.mcpServers[0]", line: 2},
		{name: "continue name not a string", file: "/home/u/.continue/config.yaml", doc: "mcpServers:\n  - name: [a]\n    command: x\n",
			msg: "server 'name' must be a string, got array", path: "$.mcpServers[0].name"},
		{name: "yaml number in args", file: "/home/u/.continue/config.yaml", doc: "mcpServers:\n  - name: a\n    command: x\n    args: [--port, 8080]\n",
			msg: "got number in it", path: "$.mcpServers[0].args[1]", line: 4},
		{name: "yaml custom tag", file: "/home/u/.continue/config.yaml", doc: "mcpServers:\n  - name: a\n    command: !secret x\n",
			msg: "'command' must be a string, got YAML !secret"},
		{name: "toml date as command", file: "/home/u/.codex/config.toml", doc: "[mcp_servers.a]\ncommand = 2024-01-01\n",
			msg: "'command' must be a string, got TOML date", path: "$.mcp_servers.a.command", line: 2},
		{name: "toml args not strings", file: "/home/u/.codex/config.toml", doc: "[mcp_servers.a]\ncommand = \"x\"\nargs = [1, 2]\n",
			msg: "got number in it", path: "$.mcp_servers.a.args[0]", line: 3},
		{name: "toml mcp_servers not a table", file: "/home/u/.codex/config.toml", doc: "mcp_servers = 3\n",
			msg: "got number", path: "$.mcp_servers", line: 1},
		{name: "codex bearer not a string", file: "/home/u/.codex/config.toml", doc: "[mcp_servers.a]\nurl = \"https://x.test\"\nbearer_token_env_var = 1\n",
			msg: "'bearer_token_env_var' must be a string, got number", line: 3},
		{name: "claude projects not an object", file: "/home/u/.claude.json", doc: `{"projects": ["/r"]}`,
			msg: "'projects' must be an object", path: "$.projects"},
	})
}

func TestParseRejectsBrokenSyntax(t *testing.T) {
	runErrCases(t, []errCase{
		{name: "json trailing garbage", file: "/home/u/.cursor/mcp.json", doc: "{\"mcpServers\": {}} x", msg: "invalid JSON: unexpected data"},
		{name: "jsonc unterminated block comment", file: "/home/u/.cursor/mcp.json", doc: "{\"mcpServers\": {}} /* x", msg: "invalid JSONC", line: 1},
		{name: "lone surrogate", file: "/home/u/.cursor/mcp.json", doc: `{"mcpServers": {"\ud800": {}}}`, msg: "lone surrogate"},
		{name: "lone surrogate in jsonc", file: "/home/u/.cursor/mcp.json", doc: "// c\n{\"mcpServers\": {\"\\ud800\": {}}}", msg: "lone surrogate", line: 2},
		{name: "invalid utf-8", file: "/home/u/.cursor/mcp.json", doc: "{\"mcpServers\": {\"a\xff\": {}}}", msg: "invalid UTF-8"},
		{name: "NaN", file: "/home/u/.cursor/mcp.json", doc: `{"mcpServers": {"a": {"timeout": NaN}}}`, msg: "NaN"},
		{name: "yaml tab indentation", file: "/home/u/.continue/config.yaml", doc: "mcpServers:\n\t- name: a\n", msg: "invalid YAML", line: 2},
		{name: "toml bad line", file: "/home/u/.codex/config.toml", doc: "[mcp_servers.a]\ncommand = \n", msg: "invalid TOML", line: 2},
	})
}

func TestParseFitsNoFormat(t *testing.T) {
	for _, tc := range []struct{ file, doc string }{
		{"notes.json", `{"editor": {"tabs": 2}}`},
		{"notes.json", `{}`},
		{"notes.jsonc", "// c\n{\"other\": 1,}"},
		{"compose.yaml", "services:\n  web:\n    image: example\n"},
		{"pyproject.toml", "[project]\nname = \"x\"\n"},
	} {
		_, _, err := Parse(tc.file, []byte(tc.doc), FormatAuto)
		ie := asInputError(t, err)
		if ie.Msg != notConfigMsg {
			t.Errorf("%s: message %q", tc.file, ie.Msg)
		}
		for _, k := range []string{"mcpServers", "servers", "mcp.servers", "context_servers", "projects.*.mcpServers", "[mcp_servers]"} {
			if !strings.Contains(err.Error(), k) {
				t.Errorf("%s: error does not name %s: %v", tc.file, k, err)
			}
		}
	}
}

func TestParseRejectsDeepNesting(t *testing.T) {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	cases := []errCase{
		{name: "json", file: "/home/u/.cursor/mcp.json",
			doc: `{"mcpServers": {"a": {"x": ` + deep("[", "]", 200) + `}}}`, msg: "nesting deeper than 128", path: "$.mcpServers.a.x" + strings.Repeat("[0]", 125)},
		{name: "jsonc", file: "/home/u/.cursor/mcp.json",
			doc: "// c\n{\"mcpServers\": {\"a\": {\"x\": " + deep("[", "]", 200) + "}}}", msg: "nesting deeper than 128", line: 2},
		{name: "jsonc huge", file: "/home/u/.cursor/mcp.json",
			doc: "/* c */" + deep("[", "]", 2_000_000), msg: "nesting deeper than 128", line: 1},
		{name: "yaml", file: "/home/u/.continue/config.yaml",
			doc: "mcpServers:\n  - name: a\n    x: " + deep("[", "]", 200) + "\n", msg: "nesting deeper than 128", line: 3},
		{name: "yaml huge", file: "/home/u/.continue/config.yaml",
			doc: "x: " + deep("[", "]", 20_000) + "\n", msg: "invalid YAML"},
		{name: "toml", file: "/home/u/.codex/config.toml",
			doc: "[mcp_servers.a]\nx = " + deep("[", "]", 200) + "\n", msg: "nesting deeper than 128"},
		{name: "toml dotted", file: "/home/u/.codex/config.toml",
			doc: strings.Repeat("a.", 300) + "b = 1\n", msg: "nesting deeper than 128", line: 1},
	}
	runErrCases(t, cases)
}

// go-toml's duplicate tracking is quadratic in the number of keys, so a
// TOML document is capped in keys as well as in bytes.
func TestParseCapsTOMLKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("[mcp_servers.a.env]\n")
	for i := 0; i <= maxTOMLKeys; i++ {
		b.WriteString("k")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(strconv.Itoa(i))
		b.WriteString(" = \"v\"\n")
	}
	_, _, err := Parse("/home/u/.codex/config.toml", []byte(b.String()), FormatAuto)
	ie := asInputError(t, err)
	if !strings.Contains(ie.Msg, "more than 10000 keys and tables") || ie.Line != maxTOMLKeys+1 {
		t.Errorf("got %v", err)
	}
	inline := "[mcp_servers.a]\nx = [" + strings.Repeat("{a = {b = 1}},", maxTOMLKeys/2+1) + "]\n"
	_, _, err = Parse("/home/u/.codex/config.toml", []byte(inline), FormatAuto)
	if ie := asInputError(t, err); !strings.Contains(ie.Msg, "more than 10000 keys") {
		t.Errorf("inline: got %v", err)
	}
}

func TestParseRejectsOversizedFile(t *testing.T) {
	data := bytes.Repeat([]byte(" "), engine.MaxFileBytes+1)
	_, _, err := Parse("/home/u/.cursor/mcp.json", data, FormatAuto)
	ie := asInputError(t, err)
	if !strings.Contains(ie.Msg, "larger than the 64 MiB cap") {
		t.Errorf("message %q", ie.Msg)
	}
	if _, err := ProjectDirs("/home/u/.claude.json", data); err == nil {
		t.Error("ProjectDirs: no error")
	}
}

// No error ever shows an env or header value, whatever breaks next to it.
func TestParseErrorsNeverShowSecrets(t *testing.T) {
	const secret = "SECRETVALUE"
	docs := []struct{ file, doc string }{
		{"/home/u/.cursor/mcp.json", `{"mcpServers": {"a": {"env": {"K": "SECRETVALUE"}, "args": 1}}}`},
		{"/home/u/.cursor/mcp.json", `{"mcpServers": {"a": {"env": {"K": "SECRETVALUE\q"}}}}`},
		{"/home/u/.cursor/mcp.json", "{\"mcpServers\": {\"a\": {\"env\": {\"K\": \"SECRETVALUE\x01\"}}}}"},
		{"/home/u/.cursor/mcp.json", "// c\n{\"mcpServers\": {\"a\": {\"env\": {\"K\": \"SECRETVALUE\x01\"}}}}"},
		{"/home/u/.cursor/mcp.json", "// c\n{\"mcpServers\": {\"a\": {\"env\": {\"K\": \"SECRETVALUE\xff\"}}}}"},
		{"/home/u/.cursor/mcp.json", `{"mcpServers": {"a": {"env": {"K": 9SECRETVALUE}}}}`},
		{"/home/u/.cursor/mcp.json", `{"mcpServers": {"a": {"env": {"K": 1e99999999}}}}`},
		{"/home/u/.cursor/mcp.json", `{"mcpServers": {"a": {"headers": {"K": "SECRETVALUE", "k": "SECRETVALUE"}}}}`},
		{"/home/u/.cursor/mcp.json", `{"mcpServers": {"a": {"env": {"K": "SECRETVALUE", "K": "SECRETVALUE"}}}}`},
		{"/home/u/.cursor/mcp.json", `{"mcpServers": {"a": {"env": {"K": "SECRETVALUE"}}, "a": {}}}`},
		{"/home/u/.continue/config.yaml", "mcpServers:\n  - name: a\n    env:\n      K: \"SECRETVALUE\n"},
		{"/home/u/.continue/config.yaml", "mcpServers:\n  - name: a\n    env:\n      K: [SECRETVALUE\n"},
		{"/home/u/.continue/config.yaml", "mcpServers:\n  - name: a\n    env:\n      K: !!int SECRETVALUE\n"},
		{"/home/u/.continue/config.yaml", "mcpServers:\n  - name: a\n    env:\n      K: SECRETVALUE\n      K: SECRETVALUE\n"},
		{"/home/u/.codex/config.toml", "[mcp_servers.a.env]\nK = 1SECRETVALUE\n"},
		{"/home/u/.codex/config.toml", "[mcp_servers.a.env]\nK = 1e1SECRETVALUE\n"},
		{"/home/u/.codex/config.toml", "[mcp_servers.a.env]\nK = 2024-01-01TSECRETVALUE\n"},
		{"/home/u/.codex/config.toml", "[mcp_servers.a.env]\nK = \"SECRETVALUE\nL = 1\n"},
		{"/home/u/.codex/config.toml", "[mcp_servers.a.env]\nK = \"SECRETVALUE\\q\"\n"},
		{"/home/u/.codex/config.toml", "[mcp_servers.a.env]\nK = \"SECRETVALUE\"\nK = \"SECRETVALUE\"\n"},
		{"/home/u/.codex/config.toml", "[mcp_servers.a]\nenv = { K = SECRETVALUE }\n"},
	}
	for _, d := range docs {
		_, _, err := Parse(d.file, []byte(d.doc), FormatAuto)
		if err == nil {
			t.Errorf("%q: no error", d.doc)
			continue
		}
		asInputError(t, err)
		if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "99999999") {
			t.Errorf("error shows a value: %v", err)
		}
	}
}

func TestTransportRules(t *testing.T) {
	for _, tc := range []struct {
		file, entry, want string
	}{
		{"/home/u/.cursor/mcp.json", `{"command": "x"}`, "stdio"},
		{"/home/u/.cursor/mcp.json", `{"type": "stdio", "command": "x"}`, "stdio"},
		{"/home/u/.cursor/mcp.json", `{"type": "HTTP", "url": "https://x.test"}`, "http"},
		{"/home/u/.cursor/mcp.json", `{"type": "streamable-http", "url": "https://x.test"}`, "streamable-http"},
		{"/home/u/.cursor/mcp.json", `{"type": "sse", "url": "https://x.test"}`, "sse"},
		{"/home/u/.cursor/mcp.json", `{"type": "websocket", "url": "wss://x.test"}`, "ws"},
		{"/home/u/.cursor/mcp.json", `{"type": "carrier-pigeon", "url": "https://x.test"}`, "carrier-pigeon"},
		{"/home/u/.cursor/mcp.json", `{"type": "", "command": "x"}`, "stdio"},
		{"/home/u/.cursor/mcp.json", `{"url": "https://x.test"}`, "streamable-http"}, // as Cursor connects
		{"/home/u/.cursor/mcp.json", `{"url": "https://x.test/sse"}`, "sse"},
		{"/home/u/.cursor/mcp.json", `{"url": "WS://x.test"}`, "ws"},
		{"/home/u/.cursor/mcp.json", `{"URL": "https://x.test"}`, "unknown"},
		{"/home/u/.cursor/mcp.json", `{"serverURL": "wss://x.test"}`, "ws"},
		{"/home/u/.cursor/mcp.json", `{"Url": "https://x.test", "command": "x"}`, "stdio"},
		{"/home/u/.cursor/mcp.json", `{"httpUrl": "https://x.test"}`, "http"},
		{"/home/u/.cursor/mcp.json", `{}`, "unknown"},
		{"/home/u/.gemini/settings.json", `{"url": "https://x.test"}`, "sse"},
		{"/home/u/.gemini/settings.json", `{"url": "wss://x.test"}`, "ws"},
	} {
		doc := `{"mcpServers": {"s": ` + tc.entry + `}}`
		inv, _, err := Parse(tc.file, []byte(doc), FormatAuto)
		if err != nil {
			t.Errorf("%s: %v", tc.entry, err)
			continue
		}
		if got := inv.Servers[0].Transport; got != tc.want {
			t.Errorf("%s %s: transport %q, want %q", tc.file, tc.entry, got, tc.want)
		}
	}
	inv, _, err := Parse("/home/u/repo/opencode.json", []byte(`{"mcp": {"r": {"type": "remote", "url": "wss://x.test"}}}`), FormatAuto)
	if err != nil || inv.Servers[0].Transport != "ws" {
		t.Errorf("opencode remote ws: %v %v", inv, err)
	}
}
