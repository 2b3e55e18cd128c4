package clientconfig

import (
	"github.com/descriptorpin/descriptorpin/engine"
)

// dialect says which spellings an entry may use beyond the common ones.
type dialect uint8

const (
	dGeneric  dialect = iota
	dZed              // "command" may be {"path", "args", "env"}
	dOpenCode         // "command" is an argv list; "environment"
	dCodex            // bearer_token_env_var, http_headers, env_http_headers
	dContinue         // lists of entries with "name" (or "uses")
)

// section is one place in a document that holds servers.
type section struct {
	val     *node
	path    string
	dialect dialect
	client  string // the client this key belongs to, when the path did not say
	scope   string // overrides the file's scope ("project" in ~/.claude.json)
	suffix  string // appended to each name ("@<dir>" in ~/.claude.json)
	kind    Format // what the key says about the file
	list    bool   // the value may be a list of named entries
	single  bool   // the value is one entry (a Continue block file)
	legacy  bool   // Continue's config.json list of {"transport": {...}}
}

// sections finds where the servers are, for the format eff (FormatAuto and
// FormatJSON read every JSON key), and the format the keys show.
func (p *parser) sections(root *node, eff Format) ([]section, Format, error) {
	switch eff {
	case FormatContinueYAML:
		return p.continueSections(root)
	case FormatCodexTOML:
		return p.codexSections(root)
	}
	if root.kind != kObject {
		if root.kind == kArray && p.client == "continue" {
			return []section{{val: root, path: "$", dialect: dContinue, list: true, kind: FormatJSON}}, FormatJSON, nil
		}
		return nil, eff, p.errAt(root, "$", "client config root is not an object (got %s)", root.typeName())
	}
	if sv, ok := root.get("servers"); ok && sv.kind == kArray && (eff == FormatAuto || eff == FormatJSON) {
		return nil, FormatInventory, &engine.InputError{File: p.file, Path: "$.servers", Msg: ErrInventory.Error() + " ('servers' is a list); read it with inventory.Parse", Err: ErrInventory}
	}
	all := eff == FormatAuto || eff == FormatJSON
	var out []section
	for i, k := range root.keys {
		v := root.vals[i]
		path := key("$", k)
		switch k {
		case "mcpServers":
			if all {
				out = append(out, section{val: v, path: path, kind: FormatJSON, list: p.client == "continue", dialect: p.dialectFor()})
			}
		case "servers":
			if all {
				out = append(out, section{val: v, path: path, client: "vscode", kind: FormatJSON})
			}
		case "mcp":
			vs := vscodeShaped(v)
			switch {
			case eff == FormatOpenCode:
				out = append(out, section{val: v, path: path, client: "opencode", dialect: dOpenCode, kind: FormatOpenCode})
			case vs && (all || eff == FormatVSCodeSettings):
				sv, _ := v.get("servers")
				out = append(out, section{val: sv, path: key(path, "servers"), client: "vscode", kind: FormatVSCodeSettings})
			case !vs && all:
				out = append(out, section{val: v, path: path, client: "opencode", dialect: dOpenCode, kind: FormatOpenCode})
			}
		case "mcp.servers":
			if all || eff == FormatVSCodeSettings {
				out = append(out, section{val: v, path: path, client: "vscode", kind: FormatVSCodeSettings})
			}
		case "context_servers":
			if all || eff == FormatZed {
				out = append(out, section{val: v, path: path, client: "zed", dialect: dZed, kind: FormatZed})
			}
		case "projects":
			if all {
				ps, err := p.projectSections(v, path)
				if err != nil {
					return nil, eff, err
				}
				out = append(out, ps...)
			}
		case "experimental":
			if all && v.kind == kObject {
				if lv, ok := v.get("modelContextProtocolServers"); ok {
					out = append(out, section{val: lv, path: key(path, "modelContextProtocolServers"), client: "continue", dialect: dContinue, list: true, legacy: true, kind: FormatJSON})
				}
			}
		}
	}
	if len(out) == 0 && p.client == "continue" && all {
		if s, ok := singleEntry(root); ok {
			out = append(out, s)
		}
	}
	if len(out) == 0 && p.strict {
		return nil, eff, p.errAt(root, "$", notConfigMsg)
	}
	return out, refine(eff, out), nil
}

// dialectFor picks the entry dialect of an "mcpServers" key.
func (p *parser) dialectFor() dialect {
	if p.client == "continue" {
		return dContinue
	}
	return dGeneric
}

// vscodeShaped tells VS Code's "mcp": {"servers": {...}} from OpenCode's
// "mcp": {<name>: entry}: the inner "servers" must be an object that is not
// itself a server entry.
func vscodeShaped(v *node) bool {
	if v.kind != kObject {
		return false
	}
	sv, ok := v.get("servers")
	if !ok || sv.kind != kObject {
		return false
	}
	for _, k := range []string{"type", "command", "url"} {
		if _, ok := sv.get(k); ok {
			return false
		}
	}
	return true
}

// singleEntry reads a Continue block file that is one bare server.
func singleEntry(root *node) (section, bool) {
	_, hasName := root.get("name")
	_, hasCmd := root.get("command")
	_, hasURL := root.get("url")
	if hasName && (hasCmd || hasURL) {
		return section{val: root, path: "$", dialect: dContinue, single: true, kind: FormatJSON}, true
	}
	return section{}, false
}

// refine reports the most specific format the keys found show.
func refine(eff Format, secs []section) Format {
	if eff != FormatAuto && eff != FormatJSON {
		return eff
	}
	if len(secs) == 0 {
		return FormatJSON
	}
	k := secs[0].kind
	for _, s := range secs[1:] {
		if s.kind != k {
			return FormatJSON
		}
	}
	return k
}

// projectSections reads Claude Code's projects.<dir>.mcpServers.
func (p *parser) projectSections(v *node, path string) ([]section, error) {
	if v.kind != kObject {
		if p.client == "claude-code" {
			return nil, p.errAt(v, path, "'projects' must be an object of project directories, got %s", v.typeName())
		}
		return nil, nil // some other tool's "projects"
	}
	var out []section
	for i, dir := range v.keys {
		pv := v.vals[i]
		ppath := key(path, dir)
		if pv.kind != kObject {
			if p.client == "claude-code" {
				return nil, p.errAt(pv, ppath, "project entry must be an object, got %s", pv.typeName())
			}
			continue
		}
		sv, ok := pv.get("mcpServers")
		if !ok {
			continue
		}
		out = append(out, section{val: sv, path: key(ppath, "mcpServers"), client: "claude-code", scope: "project", suffix: "@" + dir, kind: FormatJSON})
	}
	return out, nil
}

// continueSections reads Continue's YAML: "mcpServers" as a list of named
// entries (or the older map), a bare list, or one bare entry.
func (p *parser) continueSections(root *node) ([]section, Format, error) {
	switch root.kind {
	case kArray:
		return []section{{val: root, path: "$", client: "continue", dialect: dContinue, list: true}}, FormatContinueYAML, nil
	case kObject:
		if v, ok := root.get("mcpServers"); ok {
			return []section{{val: v, path: "$.mcpServers", client: "continue", dialect: dContinue, list: true}}, FormatContinueYAML, nil
		}
		if s, ok := singleEntry(root); ok {
			s.client = "continue"
			return []section{s}, FormatContinueYAML, nil
		}
		if p.strict {
			return nil, FormatContinueYAML, p.errAt(root, "$", notConfigMsg)
		}
		return nil, FormatContinueYAML, nil
	}
	return nil, FormatContinueYAML, p.errAt(root, "$", "client config root is not a mapping (got %s)", root.typeName())
}

// codexSections reads Codex's [mcp_servers.<name>] tables.
func (p *parser) codexSections(root *node) ([]section, Format, error) {
	if root.kind != kObject {
		return nil, FormatCodexTOML, p.errAt(root, "$", "client config root is not a table (got %s)", root.typeName())
	}
	v, ok := root.get("mcp_servers")
	if !ok {
		if p.strict {
			return nil, FormatCodexTOML, p.errAt(root, "$", notConfigMsg)
		}
		return nil, FormatCodexTOML, nil
	}
	return []section{{val: v, path: "$.mcp_servers", client: "codex", dialect: dCodex}}, FormatCodexTOML, nil
}
