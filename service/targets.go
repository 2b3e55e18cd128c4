package service

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/clientconfig"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
)

// Target kinds, as the service config names them.
const (
	KindInventory    = "inventory"
	KindClientConfig = "client-config"
	KindAuto         = "auto"
)

// The parsers, as variables so that a test can count the parses.
var (
	parseInventory    = inventory.Parse
	parseClientConfig = clientconfig.ParseWith
)

// ParseAny parses a file as an inventory or an MCP client config. With
// kind auto the content decides. Servers of a known client are named
// "<client>:<name>" (cursor:files), so that one pin can hold the servers of
// every client on a host: two clients often configure a server of the
// same name with different launch lines. home tells a user config from a
// project one.
func ParseAny(path string, data []byte, kind, home string) (*engine.Inventory, string, error) {
	if kind == KindInventory {
		inv, err := parseInventory(path, data)
		return inv, KindInventory, err
	}
	if kind == KindAuto && serversList(data) && readsAsInventory(path, home) {
		// What the client-config parser would find out after a full
		// parse: the root's 'servers' is a list. A file it would read as
		// an inventory parses as one here once; one that does not parse
		// takes the long way below, for the same error as ever.
		if inv, err := parseInventory(path, data); err == nil {
			return inv, KindInventory, nil
		}
	}
	inv, _, err := parseClientConfig(path, data, clientconfig.Options{Home: home})
	if errors.Is(err, clientconfig.ErrInventory) {
		if kind == KindClientConfig {
			return nil, "", fmt.Errorf("%s: is a DescriptorPin inventory, not an MCP client config (set kind: inventory or auto)", path)
		}
		inv, err := parseInventory(path, data)
		return inv, KindInventory, err
	}
	if err != nil {
		return nil, "", err
	}
	Qualify(inv)
	return inv, KindClientConfig, nil
}

// readsAsInventory reports whether the client-config parser, for a file of
// this name, reads a JSON document whose root has a 'servers' list as an
// inventory (ErrInventory): it does unless the name makes it read the file
// as TOML, YAML or one client's settings. It asks the parser itself, with
// the smallest such document.
func readsAsInventory(path, home string) bool {
	_, _, err := clientconfig.ParseWith(path, []byte(`{"servers":[]}`), clientconfig.Options{Home: home})
	return errors.Is(err, clientconfig.ErrInventory)
}

// serversList reports, without parsing the document, whether data is a
// JSON object with a top-level "servers" member whose value is a list. It
// only skims (a wrong answer costs a parse, never a different result).
func serversList(data []byte) bool {
	i := 0
	if len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf {
		i = 3
	}
	ws := func() {
		for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
			i++
		}
	}
	// str skips a string at i and returns its raw text (escapes kept).
	str := func() (string, bool) {
		if i >= len(data) || data[i] != '"' {
			return "", false
		}
		start := i + 1
		for j := start; j < len(data); j++ {
			switch data[j] {
			case '\\':
				j++
			case '"':
				i = j + 1
				return string(data[start:j]), true
			}
		}
		return "", false
	}
	ws()
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i++
	for {
		ws()
		key, ok := str()
		if !ok {
			return false
		}
		ws()
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i++
		ws()
		if key == "servers" {
			return i < len(data) && data[i] == '['
		}
		// Skip the value: strings whole, brackets counted.
		depth := 0
		for i < len(data) {
			c := data[i]
			if c == '"' {
				if _, ok := str(); !ok {
					return false
				}
				if depth == 0 {
					break
				}
				continue
			}
			if c == '{' || c == '[' {
				depth++
			} else if c == '}' || c == ']' {
				depth--
				if depth < 0 {
					return false
				}
			} else if depth == 0 && (c == ',' || c == ' ' || c == '\n' || c == '\t' || c == '\r') {
				break
			}
			i++
			if depth == 0 && (c == '}' || c == ']') {
				break
			}
		}
		ws()
		if i >= len(data) || data[i] != ',' {
			return false
		}
		i++
	}
}

// Qualify names the servers of a known client "<client>:<name>".
func Qualify(inv *engine.Inventory) {
	for _, s := range inv.Servers {
		if s.Client != "" && s.Client != "generic" {
			s.Name = s.Client + ":" + s.Name
		}
	}
}

// Discovered is one client config location on this host.
type Discovered struct {
	Client  string `json:"client"`
	Scope   string `json:"scope"`
	Path    string `json:"path"`
	Exists  bool   `json:"exists"`
	Servers int    `json:"servers"`
	Status  string `json:"status"` // "ok", "absent" or the parse error
}

// DiscoverPaths lists the client config locations for this OS: every
// user-level and managed path, globs expanded, and the project files of the
// projects ~/.claude.json names and of extra project directories. The zero
// Options look at this host.
func DiscoverPaths(opt Options, projects []string) []clientconfig.Candidate {
	opt = opt.withDefaults()
	cands := clientconfig.Candidates(opt.GOOS, opt.Getenv, opt.Home)
	var out []clientconfig.Candidate
	seen := map[string]bool{}
	// add lists a candidate once; a glob adds each file it matches now.
	add := func(c clientconfig.Candidate) {
		paths := []string{c.Path}
		if c.Glob {
			paths, _ = opt.FS.Glob(c.Path)
		}
		for _, p := range paths {
			if !seen[p] {
				seen[p] = true
				g := c
				g.Path, g.Glob = p, false
				out = append(out, g)
			}
		}
	}
	dirs := append([]string(nil), projects...)
	for _, c := range cands {
		add(c)
		if c.Glob {
			continue
		}
		if c.Client == "claude-code" && filepath.Base(c.Path) == ".claude.json" {
			if data, _, err := read(opt.FS, "client config", c.Path); err == nil {
				if ds, err := clientconfig.ProjectDirs(c.Path, data); err == nil {
					dirs = append(dirs, ds...)
				}
			}
		}
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		for _, c := range clientconfig.ProjectCandidates(d, opt.GOOS) {
			add(c)
		}
	}
	return out
}

// Inspect reads one candidate and says what is there.
func Inspect(c clientconfig.Candidate) Discovered {
	d := Discovered{Client: c.Client, Scope: c.Scope, Path: c.Path, Status: "absent"}
	data, err := fileio.ReadCapped("client config", c.Path, engine.MaxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return d
	}
	d.Exists = true
	if err != nil {
		d.Status = err.Error()
		return d
	}
	inv, _, err := clientconfig.ParseWith(c.Path, data, c.Options())
	if err != nil {
		d.Status = err.Error()
		return d
	}
	d.Servers = len(inv.Servers)
	d.Status = "ok"
	return d
}
