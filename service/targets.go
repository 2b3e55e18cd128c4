package service

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/clientconfig"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/monitor"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/english"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
)

// Target kinds, as the service config names them, and KindSource for a
// client's own tool source (a cache or a log: see sources.go).
const (
	KindInventory    = "inventory"
	KindClientConfig = "client-config"
	KindAuto         = "auto"
	KindSource       = "client-source"
)

// The parsers, as variables so that a test can count the parses.
var (
	parseInventory    = inventory.Parse
	parseClientConfig = clientconfig.ParseWith
	// A large watched inventory is parsed through its Reuser (the
	// daemon's parseInventory): in full, or reusing the last good parse.
	reuserParse  = (*inventory.Reuser).Parse
	reuserUpdate = (*inventory.Reuser).Update
)

// ParseAny parses a file as an inventory or an MCP client config. With
// kind auto the content decides. Servers of a known client are named
// "<client>:<name>" (cursor:files), so that one pin can hold the servers of
// every client on a host: two clients often configure a server of the
// same name with different launch lines. home tells a user config from a
// project one.
func ParseAny(path string, data []byte, kind, home string) (*engine.Inventory, string, error) {
	if err := checkShape(path, data); err != nil {
		return nil, "", err
	}
	inv, k, err := Parse(path, data, kind, home)
	if err == nil {
		err = checkCounts(path, inv)
	}
	if err != nil {
		return nil, "", err
	}
	return inv, k, nil
}

// The caps on what one watched file may hold. A project config is
// attacker-controlled and the service scans on its loop, so the cost of
// one file must stay bounded: 1.5 million tiny tools in a 29 MB
// inventory took 82 s and 6 GB before these caps. Past a cap the file is
// an input error (and so an INPUT/parse-failed finding), not a scan.
const (
	// MaxContainers is the most objects and arrays one file may hold,
	// counted in a flat pass before it is parsed.
	MaxContainers = 100_000
	// MaxServers is the most servers one file may configure.
	MaxServers = 1_000
	// MaxTools is the most tools one file may list, over all servers.
	MaxTools = 10_000
)

// checkShape refuses, before parsing, a document with more objects and
// arrays than MaxContainers (JSON and JSONC; TOML and YAML configs are
// held to the server cap after parsing).
func checkShape(path string, data []byte) error {
	if n, off := jsonv.CountContainers(data, MaxContainers); off >= 0 {
		line, col := jsonv.Position(data, off)
		return &engine.InputError{File: path, Line: line, Col: col,
			Msg: fmt.Sprintf("more than %d objects and arrays (%d so far): over the cap on one watched file", MaxContainers, n-1)}
	}
	return nil
}

// checkCounts refuses a parsed file over MaxServers or MaxTools.
func checkCounts(path string, inv *engine.Inventory) error {
	if len(inv.Servers) > MaxServers {
		return &engine.InputError{File: path, Msg: fmt.Sprintf("%d servers, more than the cap of %d per file", len(inv.Servers), MaxServers)}
	}
	n := 0
	for _, s := range inv.Servers {
		n += len(s.Tools)
	}
	if n > MaxTools {
		return &engine.InputError{File: path, Msg: fmt.Sprintf("%d tools, more than the cap of %d per file", n, MaxTools)}
	}
	return nil
}

// Parse is ParseAny without the per-file caps, for files a person names
// on the command line (pin, scan, diff, approve): a 50,000-tool inventory
// is theirs to pin. The engine's own limits (the size cap, the nesting
// cap) still hold. Files the service watches, which anyone who can write
// a project folder controls, go through ParseAny.
func Parse(path string, data []byte, kind, home string) (*engine.Inventory, string, error) {
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
	inv, err := ParseClientConfig(path, data, home)
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
	return inv, KindClientConfig, nil
}

// ParseClientConfig parses an MCP client config and names its servers
// as everything else does (the service, pins, scans, inventories,
// captures): "<client>:<name>", and a project file's "<name>@<project
// dir>" with the directory made absolute.
func ParseClientConfig(path string, data []byte, home string) (*engine.Inventory, error) {
	abs, _ := filepath.Abs(path)
	inv, _, err := parseClientConfig(path, data, clientconfig.Options{Home: home, Abs: abs})
	if err != nil {
		return nil, err
	}
	Qualify(inv)
	return inv, nil
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
	err = checkShape(c.Path, data)
	var inv *engine.Inventory
	if err == nil {
		inv, _, err = clientconfig.ParseWith(c.Path, data, c.Options())
	}
	if err == nil {
		err = checkCounts(c.Path, inv)
	}
	if err != nil {
		d.Status = err.Error()
		return d
	}
	d.Servers = len(inv.Servers)
	d.Status = "ok"
	return d
}

// Target is one thing discovery found that a pin covers: today a client
// config file; the clients' own tool sources (caches, logs) join here.
type Target struct {
	Path   string
	Kind   string // KindClientConfig
	Client string
	Scope  string
}

// DiscoverTargets is THE discovery of everything on this host a pin
// covers: every client config location DiscoverPaths lists (present or
// not; the caller checks), with the projects given. pin, scan, diff and
// approve --discover and the service's discover: true all go through it,
// so a new kind of source is added here once.
func DiscoverTargets(opt Options, projects []string) []Target {
	var out []Target
	for _, c := range DiscoverPaths(opt, projects) {
		out = append(out, Target{Path: c.Path, Kind: KindClientConfig, Client: c.Client, Scope: c.Scope})
	}
	return out
}

// SourceNames returns the names under which a pin may record file as a
// server's source, the one a new entry records first: relative to the
// pin's directory ("./tools/inv.json") when the file is inside it and that
// directory is not home or above it, so a repository's pin keeps working in
// any checkout; else relative to home ("~/.cursor/mcp.json"), so a pin
// moves between machines; then the absolute path. Slashes are forward on
// every OS. Standard input ("-") has none.
func SourceNames(file, pinPath, home string) []string {
	if file == "" || file == "-" {
		return nil
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil
	}
	within := func(dir, p string) (string, bool) {
		rel, err := filepath.Rel(dir, p)
		ok := err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
		return filepath.ToSlash(rel), ok
	}
	var out []string
	homeRel, inHome := "", false
	if home != "" {
		homeRel, inHome = within(home, abs)
	}
	if pinPath != "" && pinPath != "-" {
		if pa, err := filepath.Abs(pinPath); err == nil {
			dir := filepath.Dir(pa)
			_, dirInHome := within(home, dir)
			if rel, ok := within(dir, abs); ok && (!inHome || dirInHome) {
				out = append(out, "./"+rel)
			}
		}
	}
	if inHome {
		out = append(out, "~/"+homeRel)
	}
	return append(out, filepath.ToSlash(abs))
}

// Claim says which of a pin's entries a file owns (pin.Owned): the one
// rule the CLI's scan, diff and approve and the service's scans share.
// kind is the kind the file was parsed as; before are the servers it
// declared at its last good scan (the service's state; nil for the CLI).
func Claim(file, pinPath, home string, inv *engine.Inventory, kind string, before []string) pin.Claim {
	c := pin.Claim{Sources: SourceNames(file, pinPath, home), Before: before, LaunchOnly: kind == KindClientConfig, ToolsOnly: kind == KindSource}
	for _, s := range inv.Servers {
		c.Declared = append(c.Declared, s.Name)
	}
	return c
}

// source is the name the pin records for a target (SourceNames).
func (d *Daemon) source(path string) string {
	if n := SourceNames(path, d.cfg.Pin, d.home); len(n) > 0 {
		return n[0]
	}
	return ""
}

// firstCapture trusts on first use the tools a scheduled capture shows of
// a server for the first time (pin.FirstSight): the capture only runs
// servers whose launch config is pinned, and their first tool list is a
// first sight like any other. The pin is rewritten and the change
// announced; later differences are findings.
func (d *Daemon) firstCapture(t target, inv *engine.Inventory) []engine.Event {
	d.forgetParse(t.path) // the pin may keep parts of inv
	ap := pin.Approval{By: "trust-on-first-use", At: pin.ApprovedAt(d.now()),
		Note: fmt.Sprintf("first capture trusted on first use by %s on %s", d.opt.User, d.opt.Host)}
	np, names := pin.FirstSight(d.pin, inv, d.source(t.path), ap)
	if len(names) == 0 {
		return nil
	}
	out := np.Marshal()
	if err := d.fs.WriteFile(d.cfg.Pin, out, 0o644); err != nil {
		return []engine.Event{d.failed(d.cfg.Pin, fmt.Errorf("pinning a first capture: %w", err))}
	}
	change := monitor.DiffPins(d.pin, np)
	change.ApprovedBy = []string{"trust-on-first-use"}
	d.pin, d.pinHash, d.state.PinHash = np, hashBytes(out), hashBytes(out)
	d.pinGen++
	ev := d.event(engine.ActionPinChanged, "warn", d.cfg.Pin, fmt.Sprintf("first capture of %s: trusted %d %s on first use; review %s",
		sanitize.Text(strings.Join(names, ", ")), len(change.Added), english.Plural(len(change.Added), "tool", "tools"), english.Plural(len(change.Added), "it", "them")))
	ev.Pin = change
	return []engine.Event{ev}
}

// Input is one file the CLI's pin, scan, diff or approve works on, parsed.
type Input struct {
	Path string
	Inv  *engine.Inventory
	Mode fs.FileMode
	Kind string
}

// Claim is the input's claim on the pin at pinPath (pin.Owned, through
// Claim as the service's scans): a pin that records no sources is
// compared whole with a file given alone (whole), as the CLI always did.
func (in Input) Claim(pinPath string, whole bool) pin.Claim {
	c := Claim(in.Path, pinPath, Options{}.withDefaults().Home, in.Inv, in.Kind, nil)
	c.Whole = whole
	return c
}

// Source is the name a pin at pinPath records for the input, "" for
// standard input.
func (in Input) Source(pinPath string) string {
	if n := in.Claim(pinPath, false).Sources; len(n) > 0 {
		return n[0]
	}
	return ""
}

// BuildPin pins every input into one pin (pin.BuildWith, then Merge: a
// server name two inputs declare is one entry, owned by both). With
// sourced each server records the input it came from; a single-file pin
// is written without, as before.
func BuildPin(ins []Input, pinPath string, format int, ap pin.Approval, opt pin.Options, sourced bool) (*pin.Pin, error) {
	var out *pin.Pin
	for _, in := range ins {
		if sourced {
			opt.Source = in.Source(pinPath)
		}
		p, err := pin.BuildWith(in.Inv, format, ap, opt)
		if err != nil {
			return nil, err
		}
		if in.Kind == KindSource {
			p.Servers = nil // what a server sent, not how it was launched
		}
		if out == nil {
			out = p
		} else {
			out.Merge(p)
		}
	}
	return out, nil
}

// ExistingTargets returns the paths of what DiscoverTargets lists that
// exist now as regular files: what --discover works on.
func ExistingTargets(opt Options) []string {
	opt = opt.withDefaults()
	var out []string
	for _, t := range DiscoverTargets(opt, nil) {
		if st, err := opt.FS.Stat(t.Path); err == nil && st.Mode().IsRegular() {
			out = append(out, t.Path)
		}
	}
	return out
}

// SplitFiles tells approve's files from its KEYs: with --discover every
// argument is a KEY, with --all every one is a file, and otherwise the
// first is a file and so is each next one that is a regular file (or -).
func SplitFiles(args []string, all, discover bool) (files, keys []string) {
	switch {
	case discover:
		return nil, args
	case all:
		return args, nil
	}
	n := min(1, len(args))
	for n < len(args) {
		if st, err := os.Stat(args[n]); args[n] != "-" && (err != nil || !st.Mode().IsRegular()) {
			break
		}
		n++
	}
	return args[:n], args[n:]
}

// noTools says, for the first-use event, that a pin without tools pins
// launch configs only, and how tool descriptors get pinned.
func noTools(cfg config.Config, p *pin.Pin) string {
	if len(p.Tools) > 0 {
		return ""
	}
	return "; " + ToolPinning(cfg, p)
}

// ToolPinning says plainly whether tool descriptors are being pinned and
// where they come from, for the first-use event, status and service
// install: a pin of launch lines alone cannot see a rug pull.
func ToolPinning(cfg config.Config, p *pin.Pin) string {
	var from []string
	if cfg.Discover {
		from = append(from, "the tool lists MCP clients keep (VS Code's cache, Claude Desktop's and Claude Code's logs, Cursor's tool files), pinned on first sight")
	}
	for _, t := range cfg.Targets {
		if t.Kind != config.KindClientConfig { // a config holds launch lines only
			from = append(from, "the inventories it watches")
			break
		}
	}
	if cfg.Capture.Enabled {
		from = append(from, "the scheduled capture, each server's first capture trusted on first use")
	}
	n := 0
	if p != nil {
		n = len(p.Tools)
	}
	switch {
	case len(from) == 0:
		return "no tool descriptors are pinned, only launch configs: keep discover: true, watch inventories or set capture.enabled to pin tools"
	case n == 0:
		return "no tool descriptors pinned yet; they come from " + strings.Join(from, "; ")
	}
	return english.Count(n, "tool descriptor", "tool descriptors") + " pinned; more come from " + strings.Join(from, "; ")
}

// ReadClientConfig reads the MCP client config at path (a regular file,
// capped) and parses it as ParseClientConfig does; an inventory is
// clientconfig.ErrInventory.
func ReadClientConfig(path, home string) (*engine.Inventory, error) {
	data, err := fileio.ReadCapped("client config", path, engine.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	return ParseClientConfig(path, data, home)
}

// SourceInputs reads every client tool source ClientSources finds (VS
// Code's tool cache, Claude Desktop's and Claude Code's MCP logs, Cursor's
// tool files, MCPB manifests) for pin, scan and diff --discover: each is
// an Input of KindSource, compared with the pin's tool entries only. A
// source that cannot be read is said in warnings and left out, so one odd
// cache does not stop the rest; notes are what a reader reports (a
// folder that does not match the layout, say).
func SourceInputs(opt Options) (ins []Input, warnings []string) {
	for _, src := range ClientSources(opt) {
		inv, notes, err := ReadSource(src)
		for _, n := range notes {
			warnings = append(warnings, sanitize.Text(src.Path)+": "+sanitize.Text(n))
		}
		if err != nil {
			warnings = append(warnings, sanitize.Text(src.Path)+": "+sanitize.Text(err.Error())+"; left out")
			continue
		}
		if len(inv.Servers) == 0 {
			continue
		}
		ins = append(ins, Input{Path: src.Path, Inv: inv, Kind: KindSource})
	}
	return ins, warnings
}

// ToolPinningOf is ToolPinning for the config at cfgPath (or the default
// one) and the pin it names, for status and service install; a config
// that does not load is said to leave it unknown (they report why).
func ToolPinningOf(cfgPath string) string {
	cfg, err := config.LoadOrDefault(cfgPath)
	if err != nil {
		return "unknown: the config does not load"
	}
	var pn *pin.Pin
	if data, err := fileio.ReadCapped("pin", cfg.Pin, pin.MaxBytes); err == nil {
		pn, _ = pin.Load(cfg.Pin, data)
	}
	return ToolPinning(cfg, pn)
}
