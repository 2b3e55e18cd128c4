package inventory

import (
	"errors"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
)

// Every refusal names the file, the line and column, the JSON path and the
// problem, so a person can go straight to it: the original's messages
// where it had one, and the stricter checks this project adds.
var refusals = []struct{ name, doc, want string }{
	{"root not an object", `[]`, `f.json:1:1: $: inventory root is not an object (got array)`},
	{"no servers", `{}`, `f.json:1:1: $: inventory has no 'servers' list`},
	{"servers not a list", `{"servers": {}}`, `f.json:1:13: $.servers: inventory has no 'servers' list ('servers' is object)`},
	{"server not an object", `{"servers": [1]}`, `f.json:1:14: $.servers[0]: server entry is not an object (got number)`},
	{"server without a name", `{"servers": [{"tools": []}]}`, `$.servers[0]: server has no name`},
	{"server name empty", `{"servers": [{"name": "", "tools": []}]}`, `$.servers[0].name: server has no name (name is empty)`},
	{"duplicate server", `{"servers": [{"name": "a", "tools": []}, {"name": "a", "tools": []}]}`, `$.servers[1].name: server name 'a' is already used by $.servers[0]`},
	{"tools not a list", `{"servers": [{"name": "a", "tools": 3}]}`, `$.servers[0].tools: server 'a' tools is not a list (got number)`},
	{"tool listed twice", `{"servers": [{"name": "a", "tools": [{"name": "t"}, {"name": "t"}]}]}`, `server 'a' lists tool 't' twice (first at $.servers[0].tools[0])`},
	{"description not a string", `{"servers": [{"name": "a", "tools": [{"name": "t", "description": 1}]}]}`, `tool 't' description is not a string (got number)`},
	{"both schema spellings", `{"servers": [{"name": "a", "tools": [{"name": "t", "input_schema": {}, "inputSchema": {}}]}]}`, `both 'input_schema' and 'inputSchema' are present; a reader could take either`},
	{"args not strings", `{"servers": [{"name": "a", "args": [1], "tools": []}]}`, `$.servers[0].args[0]: 'args' must be a list of strings, got number`},
	{"env and env_keys", `{"servers": [{"name": "a", "env": {}, "env_keys": [], "tools": []}]}`, `server 'a' has both 'env' and 'env_keys'`},
	{"ambiguous key", `{"servers": [{"name": "a", "tools": [{"name": "b/c"}]}, {"name": "a/b", "tools": [{"name": "c"}]}]}`, `key 'a/b/c' is ambiguous`},
	{"duplicate object key", `{"servers": [], "servers": []}`, `duplicate key`},
	{"lone surrogate", `{"servers": [{"name": "\ud800", "tools": []}]}`, `surrogate`},
}

func TestParseRefusesWithThePlace(t *testing.T) {
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("f.json", []byte(tt.doc))
			if err == nil {
				t.Fatalf("accepted %s", tt.doc)
			}
			var ie *engine.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %T is not an *engine.InputError: %v", err, err)
			}
			if ie.File != "f.json" || ie.Line == 0 {
				t.Errorf("error does not name the file and line: %+v", ie)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error\n  %s\nwants\n  %s", err, tt.want)
			}
		})
	}
}

// What a good inventory gives: servers and tools in file order, launch
// fields, env key names (values stay in memory, never in a key list),
// and each tool's place in the file.
func TestParseReadsServersAndTools(t *testing.T) {
	doc := `{"servers": [
  {"name": "files", "transport": "stdio", "command": "npx", "args": ["-y", "pkg@1.0.0"],
   "env": {"TOKEN": "s3cret"},
   "tools": [{"name": "read", "description": " Read a file. ", "inputSchema": {"type": "object"}},
             {"name": "write"}]},
  {"name": "web", "transport": "http", "url": "https://mcp.example.test/", "header_keys": ["Authorization"], "tools": []}
]}`
	inv, err := Parse("inv.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(inv.Servers) != 2 || inv.Servers[0].Name != "files" || inv.Servers[1].Name != "web" {
		t.Fatalf("servers: %+v", inv.Servers)
	}
	s := inv.Servers[0]
	if s.Command != "npx" || strings.Join(s.Args, " ") != "-y pkg@1.0.0" || s.Transport != "stdio" {
		t.Errorf("launch of files: %+v", s)
	}
	if strings.Join(s.EnvKeys, ",") != "TOKEN" || s.Env["TOKEN"] != "s3cret" {
		t.Errorf("env of files: keys %v", s.EnvKeys)
	}
	if got := inv.Servers[1].HeaderKeys; len(got) != 1 || got[0] != "Authorization" {
		t.Errorf("header keys of web: %v", got)
	}
	tools := inv.Tools()
	if len(tools) != 2 || tools[0].Key() != "files/read" || tools[1].Key() != "files/write" {
		t.Fatalf("tools: %v", tools)
	}
	if tools[0].Line != 4 {
		t.Errorf("files/read is on line %d, want 4", tools[0].Line)
	}
	if _, ok := tools[0].Field("input_schema"); !ok {
		t.Errorf("inputSchema is not readable as input_schema")
	}
}

// Server instructions are model-visible text: the parser keeps them and
// lists them as a tool entry, so the poison signals read them and a pin
// covers them; two servers' instructions are not one name claimed twice.
func TestInstructionsAreATool(t *testing.T) {
	doc := `{"servers":[
 {"name":"a","instructions":"Use a for files.","tools":[{"name":"read","description":"Read."}]},
 {"name":"b","instructions":"Use b.","tools":[]},
 {"name":"c","instructions":"  "}]}`
	inv, err := Parse("inv.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	a := inv.Server("a")
	if a.Instructions != "Use a for files." || len(a.Tools) != 2 {
		t.Fatalf("a: %q, %d tools", a.Instructions, len(a.Tools))
	}
	it := a.Tools[1]
	if it.Name != engine.InstructionsTool("a") || it.Text("description") != "Use a for files." || it.Path != "$.servers[0].instructions" || it.Line != 2 {
		t.Fatalf("instructions tool: %+v %q", it, it.Text("description"))
	}
	if b := inv.Server("b"); len(b.Tools) != 1 || b.Tools[0].Name == it.Name {
		t.Fatalf("b: %+v", b.Tools)
	}
	if c := inv.Server("c"); len(c.Tools) != 0 {
		t.Fatalf("blank instructions made a tool: %+v", c.Tools)
	}
	for _, bad := range []string{
		`{"servers":[{"name":"a","instructions":7}]}`,
		`{"servers":[{"name":"a","instructions":"x","tools":[{"name":"(instructions of a)"}]}]}`,
	} {
		if _, err := Parse("inv.json", []byte(bad)); err == nil {
			t.Errorf("%s: parsed", bad)
		}
	}
}
