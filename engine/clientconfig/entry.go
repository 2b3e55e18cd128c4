package clientconfig

import (
	"fmt"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
)

// urlFields are the spellings of a remote server's URL seen in the wild.
var urlFields = []string{"url", "serverUrl", "httpUrl", "Url", "URL", "serverURL"}

// collect appends the servers of one section to inv.
func (p *parser) collect(sec *section, inv *engine.Inventory) error {
	v := sec.val
	switch {
	case sec.single:
		s, err := p.entry(sec, "", v, sec.path, true)
		if err != nil {
			return err
		}
		inv.Servers = append(inv.Servers, s)
	case v.kind == kObject:
		for i, name := range v.keys {
			s, err := p.entry(sec, name, v.vals[i], key(sec.path, name), false)
			if err != nil {
				return err
			}
			inv.Servers = append(inv.Servers, s)
		}
	case v.kind == kArray && sec.legacy:
		// Continue's legacy entries hold the launch line under "transport"
		// and have no name: each is named for its place in the list.
		for i, item := range v.items {
			ipath := index(sec.path, i)
			if item.kind != kObject {
				return p.errAt(item, ipath, "server entry must be an object, got %s", item.typeName())
			}
			tv, ok := item.get("transport")
			if !ok {
				return p.errAt(item, ipath, "server entry has no 'transport'")
			}
			name := fmt.Sprintf("modelContextProtocolServers[%d]", i)
			if nv, ok := item.get("name"); ok && nv.kind == kString && strings.TrimSpace(nv.str) != "" {
				name = nv.str
			}
			s, err := p.entry(sec, name, tv, ipath+".transport", false)
			if err != nil {
				return err
			}
			inv.Servers = append(inv.Servers, s)
		}
	case v.kind == kArray && sec.list:
		for i, item := range v.items {
			s, err := p.entry(sec, "", item, index(sec.path, i), true)
			if err != nil {
				return err
			}
			inv.Servers = append(inv.Servers, s)
		}
	case v.kind == kNull:
		// "mcpServers:" with nothing after it declares no servers.
	case sec.list:
		return p.errAt(v, sec.path, "servers must be a list of entries or an object of name → entry, got %s", v.typeName())
	default:
		return p.errAt(v, sec.path, "servers must be an object of name → entry, got %s", v.typeName())
	}
	return nil
}

// entry reads one server entry. With named, the name is the entry's own
// "name" (or Continue's "uses"); otherwise it is the key, given as name.
func (p *parser) entry(sec *section, name string, v *node, path string, named bool) (*engine.Server, error) {
	if v.kind != kObject {
		if named {
			return nil, p.errAt(v, path, "server entry must be an object, got %s", v.typeName())
		}
		return nil, p.errAt(v, path, "server %s entry must be an object, got %s", q(name), v.typeName())
	}
	if named {
		var err error
		if name, err = p.entryName(v, path); err != nil {
			return nil, err
		}
	} else if strings.TrimSpace(name) == "" {
		return nil, p.errAt(v, path, "server name is empty")
	}
	client := p.client
	if client == "generic" && sec.client != "" {
		client = sec.client
	}
	scope := p.scope
	if sec.scope != "" {
		scope = sec.scope
	}
	line, col := p.pos(v)
	s := &engine.Server{Name: name + sec.suffix, Client: client, Scope: scope, Path: path, Line: line}
	if p.cols == nil {
		p.cols = map[*engine.Server]int{}
	}
	p.cols[s] = col

	typ, hasType, err := p.optString(v, path, "type")
	if err != nil {
		return nil, err
	}
	argsFrom := "" // where arguments came from, besides "args"
	envFrom := ""
	if cv, ok := v.get("command"); ok {
		cpath := path + ".command"
		switch {
		case cv.kind == kString:
			s.Command = cv.str
		case cv.kind == kArray && sec.dialect == dOpenCode:
			argv, err := p.strList(cv, cpath, "command")
			if err != nil {
				return nil, err
			}
			if len(argv) > 0 {
				s.Command = argv[0]
				s.Args = append([]string{}, argv[1:]...)
			}
			argsFrom = "the command list"
		case cv.kind == kObject && sec.dialect == dZed:
			// Zed's legacy {"command": {"path", "args", "env"}}.
			if s.Command, _, err = p.optString(cv, cpath, "path"); err != nil {
				return nil, err
			}
			if av, ok := cv.get("args"); ok {
				if s.Args, err = p.strList(av, cpath+".args", "args"); err != nil {
					return nil, err
				}
				argsFrom = "'command.args'"
			}
			if ev, ok := cv.get("env"); ok {
				if s.Env, s.EnvKeys, err = p.strMap(ev, cpath+".env", "env"); err != nil {
					return nil, err
				}
				envFrom = "'command.env'"
			}
		case sec.dialect == dOpenCode:
			return nil, p.errAt(cv, cpath, "'command' must be a list of strings, got %s", cv.typeName())
		case sec.dialect == dZed:
			return nil, p.errAt(cv, cpath, "'command' must be a string or an object with 'path', got %s", cv.typeName())
		default:
			return nil, p.errAt(cv, cpath, "'command' must be a string, got %s", cv.typeName())
		}
	}
	if av, ok := v.get("args"); ok {
		if argsFrom != "" {
			return nil, p.errAt(av, path+".args", "both %s and 'args' give arguments; readers disagree on which count", argsFrom)
		}
		if s.Args, err = p.strList(av, path+".args", "args"); err != nil {
			return nil, err
		}
	}
	envKeys := []string{"env"}
	if sec.dialect == dOpenCode {
		envKeys = []string{"environment", "env"}
	}
	for _, k := range envKeys {
		ev, ok := v.get(k)
		if !ok {
			continue
		}
		if envFrom != "" {
			return nil, p.errAt(ev, key(path, k), "both %s and '%s' set the environment; readers disagree on which counts", envFrom, k)
		}
		if s.Env, s.EnvKeys, err = p.strMap(ev, key(path, k), k); err != nil {
			return nil, err
		}
		envFrom = "'" + k + "'"
	}
	urlField := ""
	for _, k := range urlFields {
		uv, ok := v.get(k)
		if !ok {
			continue
		}
		if urlField != "" {
			return nil, p.errAt(uv, key(path, k), "both '%s' and '%s' are present; clients disagree on which one wins", urlField, k)
		}
		if uv.kind != kString {
			return nil, p.errAt(uv, key(path, k), "'%s' must be a string, got %s", k, uv.typeName())
		}
		s.URL, urlField = uv.str, k
	}
	if err := p.headers(sec, v, path, s); err != nil {
		return nil, err
	}
	if err := p.extras(v, path, s); err != nil {
		return nil, err
	}
	if b, ok, err := p.optBool(v, path, "disabled"); err != nil {
		return nil, err
	} else if ok && b {
		s.Disabled = true
	}
	if b, ok, err := p.optBool(v, path, "enabled"); err != nil {
		return nil, err
	} else if ok && !b {
		s.Disabled = true
	}
	s.Transport = transport(typ, hasType, s, urlField, client, sec.dialect)
	return s, nil
}

// Launch fields some clients honour beyond the common ones (see
// launch.ExtraFields): read from every client's entries, since a field a
// client ignores pins harmlessly and a client that starts honouring one
// must not find it unpinned.
var (
	extraStrings = []string{"cwd", "envFile", "headersHelper"}
	extraBools   = []string{"trust"}
	extraLists   = []string{"autoApprove", "alwaysAllow", "env_vars"}
)

// extras reads the launch fields into s.Extra: strings as written,
// booleans as "true" or "false", lists of strings joined with ", ".
func (p *parser) extras(v *node, path string, s *engine.Server) error {
	set := func(k, val string) {
		if s.Extra == nil {
			s.Extra = map[string]string{}
		}
		s.Extra[k] = val
	}
	for _, k := range extraStrings {
		str, ok, err := p.optString(v, path, k)
		if err != nil {
			return err
		}
		if ok && str != "" {
			set(k, str)
		}
	}
	for _, k := range extraBools {
		b, ok, err := p.optBool(v, path, k)
		if err != nil {
			return err
		}
		if ok {
			set(k, fmt.Sprint(b))
		}
	}
	for _, k := range extraLists {
		lv, ok := v.get(k)
		if !ok {
			continue
		}
		if lv.kind == kBool && k == "autoApprove" {
			// Some Cline forks write autoApprove: true (every tool).
			if lv.b {
				set(k, "*")
			}
			continue
		}
		items, err := p.strList(lv, key(path, k), k)
		if err != nil {
			return err
		}
		if len(items) > 0 {
			set(k, strings.Join(items, ", "))
		}
	}
	return nil
}

// entryName reads a listed entry's "name", or Continue's "uses" (a hub
// block reference) when there is no name.
func (p *parser) entryName(v *node, path string) (string, error) {
	for _, k := range []string{"name", "uses"} {
		nv, ok := v.get(k)
		if !ok {
			continue
		}
		if nv.kind != kString {
			return "", p.errAt(nv, key(path, k), "server '%s' must be a string, got %s", k, nv.typeName())
		}
		if strings.TrimSpace(nv.str) == "" {
			return "", p.errAt(nv, key(path, k), "server has no name ('%s' is empty)", k)
		}
		return nv.str, nil
	}
	return "", p.errAt(v, path, "server entry has no name")
}

// headers reads "headers" and, for Codex, http_headers, env_http_headers,
// bearer_token_env_var and bearer_token. Header names are compared without
// case, as HTTP does: two spellings of one header are an error.
func (p *parser) headers(sec *section, v *node, path string, s *engine.Server) error {
	type src struct {
		key string
		ref func(string) string // nil: the value itself; else a reference built from it
	}
	srcs := []src{{key: "headers"}}
	if sec.dialect == dCodex {
		srcs = append(srcs, src{key: "http_headers"}, src{key: "env_http_headers", ref: func(v string) string { return "${" + v + "}" }})
	}
	from := map[string]string{} // lower-case header → where it was set
	set := func(n *node, hpath, h, val, where string) error {
		lh := strings.ToLower(h)
		where += " as " + q(h)
		if prev, dup := from[lh]; dup {
			return p.errAt(n, hpath, "header %s is set twice (%s, then %s); readers disagree on which counts", q(h), prev, where)
		}
		from[lh] = where
		if s.Headers == nil {
			s.Headers = map[string]string{}
		}
		s.Headers[h] = val
		s.HeaderKeys = append(s.HeaderKeys, h)
		return nil
	}
	for _, sr := range srcs {
		hv, ok := v.get(sr.key)
		if !ok {
			continue
		}
		hpath := key(path, sr.key)
		if _, _, err := p.strMap(hv, hpath, sr.key); err != nil {
			return err
		}
		for i, h := range hv.keys {
			val := hv.vals[i].str
			if sr.ref != nil {
				val = sr.ref(val)
			}
			if err := set(hv.vals[i], key(hpath, h), h, val, "'"+sr.key+"'"); err != nil {
				return err
			}
		}
	}
	if sec.dialect == dCodex {
		for _, k := range []string{"bearer_token_env_var", "bearer_token"} {
			tv, ok := v.get(k)
			if !ok {
				continue
			}
			if tv.kind != kString {
				return p.errAt(tv, key(path, k), "'%s' must be a string, got %s", k, tv.typeName())
			}
			val := "Bearer " + tv.str
			if k == "bearer_token_env_var" {
				val = "Bearer ${" + tv.str + "}"
			}
			if err := set(tv, key(path, k), "Authorization", val, "'"+k+"'"); err != nil {
				return err
			}
		}
	}
	sort.Strings(s.HeaderKeys)
	return nil
}

// transport derives a server's transport; see the package comment.
func transport(typ string, hasType bool, s *engine.Server, urlField, client string, d dialect) string {
	if hasType && typ != "" {
		switch strings.ToLower(typ) {
		case "stdio", "local":
			return "stdio"
		case "http":
			return "http"
		case "streamable-http", "streamablehttp", "streamable_http":
			return "streamable-http"
		case "sse":
			return "sse"
		case "ws", "websocket":
			return "ws"
		case "remote":
			if isWS(s.URL) {
				return "ws"
			}
			return "http"
		}
		return typ
	}
	switch {
	case s.Command != "":
		return "stdio"
	case urlField == "httpUrl":
		return "http"
	case s.URL == "":
		return "unknown"
	case isWS(s.URL):
		return "ws"
	case client == "gemini-cli" && urlField == "url":
		return "sse"
	case d == dCodex:
		return "http"
	case client == "cursor" && urlField == "url":
		return cursorTransport(s.URL)
	}
	return "unknown"
}

// cursorTransport is what Cursor connects to a "url" entry without a type
// over: SSE for an endpoint whose path ends in /sse, Streamable HTTP
// otherwise (Cursor tries Streamable HTTP first and falls back to SSE).
func cursorTransport(u string) string {
	path := strings.ToLower(strings.TrimSpace(u))
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	if strings.HasSuffix(strings.TrimRight(path, "/"), "/sse") {
		return "sse"
	}
	return "streamable-http"
}

func isWS(u string) bool {
	u = strings.ToLower(strings.TrimSpace(u))
	return strings.HasPrefix(u, "ws://") || strings.HasPrefix(u, "wss://")
}

func (p *parser) optString(v *node, path, k string) (string, bool, error) {
	n, ok := v.get(k)
	if !ok {
		return "", false, nil
	}
	if n.kind != kString {
		return "", false, p.errAt(n, key(path, k), "'%s' must be a string, got %s", k, n.typeName())
	}
	return n.str, true, nil
}

func (p *parser) optBool(v *node, path, k string) (bool, bool, error) {
	n, ok := v.get(k)
	if !ok {
		return false, false, nil
	}
	if n.kind != kBool {
		return false, false, p.errAt(n, key(path, k), "'%s' must be true or false, got %s", k, n.typeName())
	}
	return n.b, true, nil
}

// strList reads a list of strings; what names the field in messages.
func (p *parser) strList(n *node, path, what string) ([]string, error) {
	if n.kind != kArray {
		return nil, p.errAt(n, path, "'%s' must be a list of strings, got %s", what, n.typeName())
	}
	out := make([]string, 0, len(n.items))
	for i, it := range n.items {
		if it.kind != kString {
			return nil, p.errAt(it, index(path, i), "'%s' must be a list of strings, got %s in it", what, it.typeName())
		}
		out = append(out, it.str)
	}
	return out, nil
}

// strMap reads an object of strings (env, headers). Values are never put
// in a message: they may be secrets.
func (p *parser) strMap(n *node, path, what string) (map[string]string, []string, error) {
	if n.kind != kObject {
		return nil, nil, p.errAt(n, path, "'%s' must be an object of strings, got %s", what, n.typeName())
	}
	m := make(map[string]string, len(n.keys))
	var keys []string // nil for {}, as inventory.Parse gives
	for i, k := range n.keys {
		val := n.vals[i]
		if val.kind != kString {
			return nil, nil, p.errAt(val, key(path, k), "'%s' values must be strings, got %s for %s", what, val.typeName(), q(k))
		}
		m[k] = val.str
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return m, keys, nil
}
