package engine

import "github.com/descriptorpin/descriptorpin/engine/jsonv"

// Inventory is the set of servers and tools one file describes.
type Inventory struct {
	File    string // the name the caller gave, for messages and reports
	Servers []*Server
}

// Server is one MCP server as an inventory or client config declares it.
type Server struct {
	Name      string
	Transport string
	Command   string
	Args      []string
	URL       string
	// Env holds environment values in memory only: nothing prints, pins or
	// logs them. EnvKeys is the sorted key set, which is safe to show.
	Env     map[string]string
	EnvKeys []string
	// Headers, like Env, holds values in memory only; HeaderKeys is safe.
	Headers    map[string]string
	HeaderKeys []string
	// Client and Scope say where a client config declared the server
	// ("claude-desktop", "user"); empty for inventories.
	Client string
	Scope  string
	// Extra holds the launch fields some clients honour beyond command,
	// args, env, url and headers, by their config name (see
	// launch.ExtraFields: cwd, envFile, headersHelper, trust, autoApprove,
	// alwaysAllow, env_vars): strings as written, booleans "true" or
	// "false", lists joined with ", ". Values may hold secrets (a
	// headersHelper command line): they are shown, pinned and hashed only
	// through launch.RedactExtra.
	Extra map[string]string
	// Disabled is set when the client config turns the server off.
	Disabled bool
	// Instructions is the server's initialize instructions as a client
	// received them (inventories built from client caches carry them).
	// They reach the model like a description, so the inventory parser
	// also lists them as a tool named InstructionsTool(Name), last in
	// Tools: the poison signals read them and the pin pins them, and a
	// changed text is a MUTATION of that entry.
	Instructions string
	Tools        []*Tool
	Path         string // JSON path of the server object
	Line         int
}

// InstructionsTool is the name of the tool entry that stands for a
// server's instructions. It holds the server's name, so that two servers
// with instructions are not one tool name claimed twice (SHADOW), and
// the parentheses and space keep it apart from MCP tool names, which are
// letters, digits and "_-./".
func InstructionsTool(server string) string { return "(instructions of " + server + ")" }

// Tool is one tool descriptor of a server.
type Tool struct {
	Server string
	Name   string // as written
	// Raw is the tool object as parsed. Descriptor builds the pinned form.
	Raw  *jsonv.Value
	Path string
	Line int
}

// Key is the server-qualified tool name, "server/tool".
func (t *Tool) Key() string { return t.Server + "/" + t.Name }

// Text returns the string value of a top-level descriptor field, or "".
func (t *Tool) Text(field string) string {
	if v, ok := t.Raw.Get(field); ok && v.Kind == jsonv.String {
		return v.Str
	}
	return ""
}

// Field returns a top-level field of the descriptor, reading the camelCase
// spelling of input_schema and output_schema too.
func (t *Tool) Field(name string) (*jsonv.Value, bool) {
	if v, ok := t.Raw.Get(name); ok {
		return v, true
	}
	if alt, ok := camelAlias[name]; ok {
		return t.Raw.Get(alt)
	}
	return nil, false
}

var camelAlias = map[string]string{"input_schema": "inputSchema", "output_schema": "outputSchema"}

// Tools returns every tool of the inventory in file order.
func (inv *Inventory) Tools() []*Tool {
	var out []*Tool
	for _, s := range inv.Servers {
		out = append(out, s.Tools...)
	}
	return out
}

// Server returns the named server or nil.
func (inv *Inventory) Server(name string) *Server {
	for _, s := range inv.Servers {
		if s.Name == name {
			return s
		}
	}
	return nil
}
