package service

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/monitor"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/engine/scan"
	"github.com/descriptorpin/descriptorpin/engine/sources"
	"github.com/descriptorpin/descriptorpin/internal/clientfs"
	"github.com/descriptorpin/descriptorpin/internal/english"
)

// Client tool sources: the tool lists MCP clients already keep on disk
// (docs/sources.md). The CLI lists and reads them with SourceLocations,
// ClientSources, ReadSource and ClientInventory; the service watches
// them (Daemon.scanSources), one monitored target per source. Nothing
// here launches a process or writes a client's file.

// SourcesFile is the name of the sources' persisted state in state_dir:
// where each Claude Desktop log was read to, the lists assembled from the
// logs, and the sources seen.
const SourcesFile = "sources.json"

// ClientSource is one place on this host where a client keeps the tool
// lists it received: a VS Code state.vscdb, a Claude Desktop log folder
// (its mcp*.log files are read together), a Cursor mcps/ folder, a Claude
// Code mcp-logs-<server> folder or an MCPB manifest.
type ClientSource struct {
	Client     string `json:"client"`
	Kind       string `json:"kind"`
	Path       string `json:"path"`
	Unverified bool   `json:"unverified,omitempty"`
}

// SourceInfo is what discover shows of one source.
type SourceInfo struct {
	ClientSource
	Servers int      `json:"servers"`
	Tools   int      `json:"tools"`
	Status  string   `json:"status"`          // "ok" or why it cannot be read
	Notes   []string `json:"notes,omitempty"` // problems that do not fail it (a folder of the wrong shape)
}

// ClientName is how messages name a client ("VS Code").
func ClientName(client string) string {
	switch client {
	case sources.ClientVSCode:
		return "VS Code"
	case sources.ClientVSCodeInsiders:
		return "VS Code Insiders"
	case sources.ClientClaudeDesktop:
		return "Claude Desktop"
	case sources.ClientCursor:
		return "Cursor"
	case sources.ClientClaudeCode:
		return "Claude Code"
	}
	return client
}

// SourceLocations lists every location checked for client tool lists on
// this host, found or not, in a fixed order.
func SourceLocations(opt Options) []clientfs.Location {
	opt = opt.withDefaults()
	return clientfs.LocateEnv(opt.Home, opt.GOOS, opt.Getenv)
}

// ClientSources lists the client tool sources that exist now.
func ClientSources(opt Options) []ClientSource {
	var out []ClientSource
	seen := map[string]bool{}
	for _, loc := range SourceLocations(opt) {
		for _, p := range clientfs.Expand(loc) {
			if loc.Kind == sources.KindClaudeDesktopLog {
				p = filepath.Dir(p) // one source per log folder
			}
			if !seen[p] {
				seen[p] = true
				out = append(out, ClientSource{Client: loc.Client, Kind: loc.Kind, Path: p, Unverified: loc.Unverified})
			}
		}
	}
	return out
}

// ReadSource reads one source, from the start (a Claude Desktop log
// folder is read whole, each server's newest list wins), as an inventory
// whose servers are named "<client>:<name>" as the service names client
// config servers. notes are problems that do not fail the source.
func ReadSource(src ClientSource) (inv *engine.Inventory, notes []string, err error) {
	servers, notes, err := readServers(src, nil)
	if err != nil {
		return nil, notes, err
	}
	inv, err = sources.ToInventory(sourceFile(src), servers)
	return inv, notes, err
}

// InspectSource reads one source and says what is there.
func InspectSource(src ClientSource) SourceInfo {
	si := SourceInfo{ClientSource: src, Status: "ok"}
	servers, notes, err := readServers(src, nil)
	si.Notes = notes
	if err == nil {
		_, err = sources.ToInventory(sourceFile(src), servers)
	}
	if err != nil {
		si.Status = sanitize.Text(err.Error())
		return si
	}
	si.Servers = len(servers)
	for _, s := range servers {
		si.Tools += len(s.Tools)
	}
	return si
}

// ClientInventory is the inventory document of every source together
// (inventory --from-clients), with what each source held. A server name
// two sources share (two VS Code profiles) is kept apart as "name#2".
func ClientInventory(srcs []ClientSource) ([]byte, []SourceInfo) {
	var all []sources.Server
	var infos []SourceInfo
	used := map[string]bool{}
	for _, src := range srcs {
		si := SourceInfo{ClientSource: src, Status: "ok"}
		servers, notes, err := readServers(src, nil)
		si.Notes = notes
		if err == nil {
			_, err = sources.ToInventory(sourceFile(src), servers)
		}
		if err != nil {
			si.Status = sanitize.Text(err.Error())
			infos = append(infos, si)
			continue
		}
		for _, s := range servers {
			base := s.Name
			for n := 2; used[s.Name]; n++ {
				s.Name = fmt.Sprintf("%s#%d", base, n)
			}
			used[s.Name] = true
			si.Servers++
			si.Tools += len(s.Tools)
			all = append(all, s)
		}
		infos = append(infos, si)
	}
	return sources.AppendInventory(nil, all), infos
}

// sourceFile names a source in messages and in its inventory.
func sourceFile(src ClientSource) string {
	if src.Kind == sources.KindVSCodeToolCache {
		return src.Path + "#" + sources.VSCodeCacheKey
	}
	return src.Path
}

// desktopReader continues the incremental reads of Claude Desktop logs;
// nil reads each log from the start.
type desktopReader interface {
	logState(file string) sources.DesktopLogState
	setLogState(file string, st sources.DesktopLogState)
	// merged is the lists read so far from the folder, nil when none.
	merged(dir string) []sources.Server
	// claudeCode continues the read of a Claude Code log folder.
	claudeCode(dir string) (sources.Server, error)
}

// readServers reads a source's servers, named "<client>:<name>".
func readServers(src ClientSource, dr desktopReader) ([]sources.Server, []string, error) {
	var servers []sources.Server
	var notes []string
	var err error
	switch src.Kind {
	case sources.KindVSCodeToolCache:
		servers, err = clientfs.ReadVSCodeDB(src.Client, src.Path, goosOf(src.Path))
	case sources.KindClaudeDesktopLog:
		servers, notes, err = readDesktopLogs(src.Path, dr)
	case sources.KindCursorMCPs:
		var mm []sources.Mismatch
		servers, mm, err = clientfs.ReadCursorMCPs(src.Path)
		for _, m := range mm {
			notes = append(notes, sanitize.Text(m.Path)+": not a Cursor tool folder as expected: "+sanitize.Text(m.Reason))
		}
	case sources.KindClaudeCodeLog:
		var s sources.Server
		if dr != nil {
			s, err = dr.claudeCode(src.Path)
		} else {
			s, err = clientfs.ReadClaudeCodeLog(src.Path, 0)
		}
		if err == nil {
			servers = []sources.Server{s}
		}
	case sources.KindMCPBManifest:
		var s sources.Server
		if s, err = clientfs.ReadMCPB(src.Path); err == nil {
			servers = []sources.Server{s}
		}
	default:
		err = fmt.Errorf("%s: unknown source kind %q", src.Path, src.Kind)
	}
	if err != nil {
		return nil, notes, err
	}
	for i := range servers {
		if servers[i].Client == "" {
			servers[i].Client = src.Client
		}
		if !strings.HasPrefix(servers[i].Name, src.Client+":") {
			servers[i].Name = src.Client + ":" + servers[i].Name
		}
	}
	return servers, notes, nil
}

// goosOf is the OS a path was written for: workspace.json holds file
// URIs, which read differently on Windows.
func goosOf(path string) string {
	if filepath.Separator == '\\' || strings.Contains(path, `\`) {
		return "windows"
	}
	return "linux"
}

// readDesktopLogs reads the mcp*.log files of a Claude Desktop log folder
// incrementally (from dr's offsets) and merges each server's newest list
// with the ones read before.
func readDesktopLogs(dir string, dr desktopReader) ([]sources.Server, []string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "mcp*.log"))
	if err != nil {
		return nil, nil, err
	}
	var lists [][]sources.Server
	if dr != nil {
		lists = append(lists, dr.merged(dir))
	}
	var notes []string
	var firstErr error
	for _, f := range files {
		var st sources.DesktopLogState
		if dr != nil {
			st = dr.logState(f)
		}
		servers, next, problems, err := clientfs.ReadClaudeDesktopLog(f, st)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if dr != nil {
			dr.setLogState(f, next)
		}
		for _, p := range problems {
			notes = append(notes, sanitize.Text(p.Error()))
		}
		for i := range servers { // named as the merged lists are
			if !strings.HasPrefix(servers[i].Name, sources.ClientClaudeDesktop+":") {
				servers[i].Name = sources.ClientClaudeDesktop + ":" + servers[i].Name
			}
		}
		lists = append(lists, servers)
	}
	if firstErr != nil && len(lists) == 0 {
		return nil, notes, firstErr
	}
	return sources.Newest(lists...), notes, nil
}

// --- the service's side ---

// sourceState is what SourcesFile holds.
type sourceState struct {
	Version int `json:"version"`
	// Seen: when each source was first seen with tool lists (RFC 3339).
	// The first sight of a source is trusted on first use, once.
	Seen map[string]string `json:"seen"`
	// Logs: where the incremental read of each Claude Desktop log stands.
	Logs map[string]sources.DesktopLogState `json:"claude_desktop_logs,omitempty"`
	// Lists: per Claude Desktop log folder, each server's newest list read
	// so far, as an inventory document (AppendInventory).
	Lists map[string]string `json:"claude_desktop_lists,omitempty"`
}

// sourceSet is the daemon's client sources.
type sourceSet struct {
	list     map[string]ClientSource // by source path
	watch    map[string]string       // watched file -> source path
	stamp    map[string]string       // source path -> its files' sizes and times at the last read
	when     map[string]time.Time    // source path -> the newest write among its files
	inv      map[string]*engine.Inventory
	digest   map[string]string            // source path -> digest of what it holds
	received map[string]map[string]string // source path -> server -> when received (logs)
	scanned  map[string]scanKey
	notes    map[string]bool // notes already reported this run
	code     map[string]clientfs.CodeLogState
	codeList map[string]sources.Server
	st       sourceState
	saved    []byte
	lastSave time.Time
	dirty    bool // offsets moved
	urgent   bool // lists or sightings changed: save at once
}

func (s *sourceSet) logState(file string) sources.DesktopLogState { return s.st.Logs[file] }
func (s *sourceSet) setLogState(file string, st sources.DesktopLogState) {
	if old, ok := s.st.Logs[file]; !ok || old.Offset != st.Offset || old.Identity != st.Identity {
		s.dirty = true
	}
	s.st.Logs[file] = st
}

// claudeCode reads what a Claude Code log gained since the last read and
// keeps the last list found (in memory: a restart reads the tail once).
func (s *sourceSet) claudeCode(dir string) (sources.Server, error) {
	srv, found, next, err := clientfs.ReadClaudeCodeLogSince(dir, s.code[dir])
	if err != nil {
		return srv, err
	}
	s.code[dir] = next
	if found {
		s.codeList[dir] = srv
	}
	last, ok := s.codeList[dir]
	if !ok {
		return srv, fmt.Errorf("%s: no tools/list result yet", dir)
	}
	return last, nil
}

func (s *sourceSet) merged(dir string) []sources.Server {
	doc, ok := s.st.Lists[dir]
	if !ok {
		return nil
	}
	servers, err := sources.FromInventory(dir, []byte(doc))
	if err != nil {
		return nil
	}
	return servers
}

// discoverSources adds the client sources that exist now (discover: true)
// and reports whether the files to watch changed. The first call loads
// SourcesFile.
func (d *Daemon) discoverSources() bool {
	if d.src == nil {
		d.src = &sourceSet{list: map[string]ClientSource{}, watch: map[string]string{}, stamp: map[string]string{},
			when: map[string]time.Time{}, inv: map[string]*engine.Inventory{}, digest: map[string]string{},
			received: map[string]map[string]string{}, code: map[string]clientfs.CodeLogState{}, codeList: map[string]sources.Server{}, scanned: map[string]scanKey{}, notes: map[string]bool{}}
		d.loadSources()
	}
	if !d.cfg.Discover {
		return false
	}
	for _, src := range ClientSources(d.opt) {
		d.src.list[src.Path] = src
	}
	return d.rewatchSources()
}

// rewatchSources recomputes the files watched for the sources.
func (d *Daemon) rewatchSources() bool {
	watch := map[string]string{}
	for p, src := range d.src.list {
		for _, f := range sourceFiles(src, true) {
			watch[f.path] = p
		}
	}
	changed := len(watch) != len(d.src.watch)
	for k, v := range watch {
		if d.src.watch[k] != v {
			changed = true
		}
	}
	d.src.watch = watch
	return changed
}

func (d *Daemon) sourceWatchPaths() []string {
	if d.src == nil {
		return nil
	}
	out := make([]string, 0, len(d.src.watch))
	for p := range d.src.watch {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// isSource reports whether path is a watched source (its state is kept).
func (d *Daemon) isSource(path string) bool {
	_, ok := d.src.list[path]
	return ok
}

// sourceSignal scans the source a changed file belongs to.
func (d *Daemon) sourceSignal(path string) bool {
	p, ok := d.src.watch[path]
	if !ok {
		return false
	}
	d.emit(d.scanSource(d.src.list[p])...)
	d.saveSources(false)
	return true
}

// scanSources scans every source (a full rescan, a pin change).
func (d *Daemon) scanSources() {
	if d.src == nil {
		return
	}
	paths := make([]string, 0, len(d.src.list))
	for p := range d.src.list {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		d.emit(d.scanSource(d.src.list[p])...)
	}
	d.saveSources(false)
}

type sourceFileInfo struct {
	path string
	mod  time.Time
	size int64
}

// sourceFiles lists the files a source is read from (and watched through):
// a VS Code database and its -wal (also when missing, so a WAL that
// appears is seen), the log files of a Claude Desktop folder, every file
// of a Cursor mcps/ tree (links not followed), the .jsonl files of a
// Claude Code folder, a manifest. With all false, missing files are left
// out.
func sourceFiles(src ClientSource, all bool) []sourceFileInfo {
	var out []sourceFileInfo
	add := func(p string) {
		fi, err := os.Lstat(p)
		if err != nil {
			if all {
				out = append(out, sourceFileInfo{path: p})
			}
			return
		}
		out = append(out, sourceFileInfo{path: p, mod: fi.ModTime(), size: fi.Size()})
	}
	switch src.Kind {
	case sources.KindVSCodeToolCache:
		add(src.Path)
		add(src.Path + "-wal")
	case sources.KindClaudeDesktopLog:
		files, _ := filepath.Glob(filepath.Join(src.Path, "mcp*.log"))
		for _, f := range files {
			add(f)
		}
	case sources.KindCursorMCPs:
		n := 0
		_ = filepath.WalkDir(src.Path, func(p string, e fs.DirEntry, err error) error {
			if err != nil || p == src.Path {
				return nil
			}
			if n++; n > 10000 {
				return filepath.SkipAll
			}
			add(p)
			return nil
		})
	case sources.KindClaudeCodeLog:
		ents, _ := os.ReadDir(src.Path)
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".jsonl") {
				add(filepath.Join(src.Path, e.Name()))
			}
		}
	default:
		add(src.Path)
	}
	return out
}

// scanSource re-reads a source when its files changed, and scans it when
// what it holds changed (by digest) or the pin did.
func (d *Daemon) scanSource(src ClientSource) []engine.Event {
	files := sourceFiles(src, false)
	var b strings.Builder
	var newest time.Time
	for _, f := range files {
		fmt.Fprintf(&b, "%s\x00%d\x00%d\n", f.path, f.size, f.mod.UnixNano())
		if f.mod.After(newest) {
			newest = f.mod
		}
	}
	stamp := b.String()
	fst := d.state.File(src.Path, monitor.Identity(src.Path, d.home), src.Kind)
	now := d.now()
	var evs []engine.Event
	if stamp != d.src.stamp[src.Path] || d.src.inv[src.Path] == nil {
		if len(files) == 0 {
			delete(d.src.inv, src.Path)
			d.src.stamp[src.Path] = stamp
			if fst.ContentHash == "" && len(fst.Open) == 0 {
				fst.Result, fst.LastScan = "absent", engine.Stamp(now)
				return nil
			}
		}
		var dr desktopReader = d.src
		servers, notes, err := readServers(src, dr)
		for _, n := range notes {
			if !d.src.notes[src.Path+"\x00"+n] {
				d.src.notes[src.Path+"\x00"+n] = true
				evs = append(evs, d.event(engine.ActionScanFailed, "warn", src.Path, ClientName(src.Client)+": "+n))
			}
		}
		var inv *engine.Inventory
		if err == nil {
			inv, err = sources.ToInventory(sourceFile(src), servers)
		}
		if err != nil {
			delete(d.src.stamp, src.Path)
			return append(evs, monitor.ApplyFailure(fst, err, now)...)
		}
		doc := sources.AppendInventory(nil, servers)
		if src.Kind == sources.KindClaudeDesktopLog && d.src.st.Lists[src.Path] != string(doc) {
			d.src.st.Lists[src.Path] = string(doc)
			d.src.urgent = true
		}
		rec := map[string]string{}
		for _, s := range servers {
			rec[s.Name] = s.ReceivedAt
		}
		d.src.stamp[src.Path], d.src.when[src.Path], d.src.inv[src.Path] = stamp, newest, inv
		d.src.digest[src.Path], d.src.received[src.Path] = hashBytes(doc), rec
		if len(servers) > 0 {
			evs = append(evs, d.firstSight(src, inv)...)
		}
	}
	inv := d.src.inv[src.Path]
	if inv == nil {
		return evs
	}
	digest := d.src.digest[src.Path]
	key := scanKey{content: digest, pinGen: d.pinGen} // a source's mode is not a config's: no writable_config
	if d.src.scanned[src.Path] == key && fst.Result != "failed" {
		return evs
	}
	d.src.scanned[src.Path] = key
	var names []string
	for _, s := range inv.Servers {
		names = append(names, s.Name)
	}
	// Tools only (pin.Claim.ToolsOnly, scan.ScanOptions.ToolsOnly): a
	// cache says what a server sent, not how it was launched; the client
	// config's target compares launch lines. The one ownership rule of
	// the CLI and the service (Claim) decides which entries are the
	// source's.
	opt := scan.ScanOptions{Rules: d.rules, ToolsOnly: true}
	var p *pin.Pin
	if d.pin != nil {
		p = d.pin.Owned(Claim(src.Path, d.cfg.Pin, d.home, inv, KindSource, fst.Servers))
	} else {
		opt.Classes = []engine.Class{engine.Shadow, engine.Poison}
	}
	r := scan.Scan(inv, p, opt)
	byID := map[string]*engine.Finding{}
	for i := range r.Findings {
		byID[r.Findings[i].ID] = &r.Findings[i]
	}
	for _, ev := range monitor.ApplyScan(fst, r, digest, names, now) {
		if ev.Action == engine.ActionFindingOpened && ev.Finding != nil {
			if f := byID[ev.Finding.FindingID]; f != nil {
				d.whereSeen(&ev, src, f)
			}
		}
		evs = append(evs, ev)
	}
	return evs
}

// whereSeen says in a finding's event and summary which client received
// what, and when: "VS Code received a changed description of
// github/create_issue (tool cache written 2026-12-01T10:31:02Z)".
func (d *Daemon) whereSeen(ev *engine.Event, src ClientSource, f *engine.Finding) {
	client := ClientName(src.Client)
	server := strings.TrimPrefix(f.Server, src.Client+":")
	subject := sanitize.Text(server + "/" + f.Tool)
	instr := f.Tool == engine.InstructionsTool(f.Server)
	if instr {
		subject = "server " + sanitize.Text(server)
	}
	when := ""
	if at := d.src.received[src.Path][f.Server]; at != "" {
		when = " at " + sanitize.Text(at)
	}
	if when == "" && !d.src.when[src.Path].IsZero() {
		when = " (written " + engine.Stamp(d.src.when[src.Path]) + ")"
	}
	var msg string
	switch f.Class {
	case engine.Mutation:
		what := changedFields(f)
		if instr {
			what = "instructions"
		}
		msg = fmt.Sprintf("%s received a changed %s of %s%s", client, what, subject, when)
		if instr {
			msg = fmt.Sprintf("%s received changed instructions of %s%s", client, subject, when)
		}
	case engine.Added:
		msg = fmt.Sprintf("%s received a new tool %s%s", client, subject, when)
	case engine.Removed:
		msg = fmt.Sprintf("%s no longer lists %s%s", client, subject, when)
	default:
		msg = fmt.Sprintf("%s received %s%s: %s", client, subject, when, ev.Finding.Summary)
	}
	ev.Finding.Details = append([]string{ev.Finding.Summary}, ev.Finding.Details...)
	ev.Finding.Summary = msg
	ev.Message = msg
}

// changedFields names what a MUTATION changed: "description", "schema",
// "description and schema".
func changedFields(f *engine.Finding) string {
	seen := map[string]bool{}
	var out []string
	for _, c := range f.Changes {
		n := c.Field
		switch n {
		case "input_schema", "inputSchema", "output_schema", "outputSchema":
			n = "schema"
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return "descriptor"
	}
	if len(out) == 1 {
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

// firstSight trusts a source's tool lists on first use the first time the
// service sees the source hold any: a person who installs VS Code
// tomorrow expects its tools pinned as the ones there today were, not a
// finding per tool. It happens once per source (SourcesFile remembers),
// only with trust_on_first_use and a good pin, never replaces a pinned
// entry, and is announced as a pin change.
func (d *Daemon) firstSight(src ClientSource, inv *engine.Inventory) []engine.Event {
	if _, seen := d.src.st.Seen[src.Path]; seen {
		return nil
	}
	at := pin.ApprovedAt(d.now())
	d.src.st.Seen[src.Path] = at
	d.src.urgent = true
	if !d.cfg.TrustOnFirstUse || d.pin == nil {
		return nil
	}
	where := monitor.Identity(src.Path, d.home)
	ap := pin.Approval{By: "trust-on-first-use", At: at,
		Note: fmt.Sprintf("first sight of %s's %s %s, trusted on first use by %s on %s", ClientName(src.Client), src.Kind, where, d.opt.User, d.opt.Host)}
	built, err := pin.Build(inv, pin.Format2, ap)
	if err != nil {
		return []engine.Event{d.failed(src.Path, err)}
	}
	built.Servers = nil
	if d.pin.Format != pin.Format2 {
		return nil // a format 1 pin is a person's: left as it is
	}
	np, err := pin.Load(d.cfg.Pin, d.pin.Marshal()) // a copy: the capture goroutine may hold d.pin
	if err != nil {
		return []engine.Event{d.failed(d.cfg.Pin, err)}
	}
	np.Merge(built)
	change := monitor.DiffPins(d.pin, np)
	if len(change.Added) == 0 {
		return nil
	}
	out := np.Marshal()
	if err := d.fs.MkdirAll(filepath.Dir(d.cfg.Pin), 0o700); err != nil {
		return []engine.Event{d.failed(d.cfg.Pin, err)}
	}
	if err := d.fs.WriteFile(d.cfg.Pin, out, 0o644); err != nil {
		return []engine.Event{d.failed(d.cfg.Pin, err)}
	}
	d.pin, d.pinHash, d.state.PinHash = np, hashBytes(out), hashBytes(out)
	d.pinGen++
	change.ApprovedBy = []string{"trust-on-first-use"}
	ev := d.event(engine.ActionPinChanged, "warn", d.cfg.Pin,
		fmt.Sprintf("first sight of %s's %s at %s: trusted its %d tools on first use; review them",
			ClientName(src.Client), kindName(src.Kind), sanitize.Text(where), len(change.Added)))
	ev.Pin = change
	return []engine.Event{ev}
}

// loadSources reads SourcesFile; an unreadable one starts afresh (the
// logs are then read again from their start, which only repeats lists).
func (d *Daemon) loadSources() {
	st := sourceState{Version: 1}
	path := filepath.Join(d.cfg.StateDir, SourcesFile)
	data, _, err := read(d.fs, "state", path)
	if err == nil {
		if err = json.Unmarshal(data, &st); err == nil && st.Version != 1 {
			err = fmt.Errorf("sources state version %d, want 1", st.Version)
		}
		if err != nil {
			st = sourceState{Version: 1}
			d.emit(d.failed(path, fmt.Errorf("sources state unreadable (%v); starting afresh", err)))
		} else {
			d.src.saved = data
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		d.emit(d.failed(path, err))
	}
	if st.Seen == nil {
		st.Seen = map[string]string{}
	}
	if st.Logs == nil {
		st.Logs = map[string]sources.DesktopLogState{}
	}
	if st.Lists == nil {
		st.Lists = map[string]string{}
	}
	d.src.st = st
}

// saveSources writes SourcesFile when it changed: at once when lists or
// sightings changed (final), else at most every 30 seconds, so a busy
// log does not cost a write per line. A crash loses at most 30 seconds
// of offsets, and rereading them only repeats lists already known.
func (d *Daemon) saveSources(final bool) {
	if d.src == nil || !d.src.dirty && !d.src.urgent && !final {
		return
	}
	now := d.now()
	if !final && !d.src.urgent && now.Sub(d.src.lastSave) < 30*time.Second {
		return
	}
	data, err := json.MarshalIndent(d.src.st, "", "  ")
	if err != nil {
		return
	}
	data = append(data, '\n')
	d.src.dirty, d.src.urgent = false, false
	if string(data) == string(d.src.saved) {
		return
	}
	if err := d.fs.MkdirAll(d.cfg.StateDir, 0o700); err != nil {
		return
	}
	if err := d.fs.WriteFile(filepath.Join(d.cfg.StateDir, SourcesFile), data, 0o600); err != nil {
		d.emit(d.failed(filepath.Join(d.cfg.StateDir, SourcesFile), err))
		return
	}
	d.src.saved, d.src.lastSave = data, now
}

// SourceLocation is one location checked for client tool lists.
type SourceLocation struct {
	Client     string `json:"client"`
	Kind       string `json:"kind"`
	Path       string `json:"path"`
	Found      int    `json:"found"` // how many sources it names now
	Unverified bool   `json:"unverified,omitempty"`
}

// DiscoverSources reads every client tool source on this host and lists
// every location checked (discover).
func DiscoverSources(opt Options) ([]SourceInfo, []SourceLocation) {
	var locs []SourceLocation
	for _, l := range SourceLocations(opt) {
		locs = append(locs, SourceLocation{Client: l.Client, Kind: l.Kind, Path: l.Path, Found: len(clientfs.Expand(l)), Unverified: l.Unverified})
	}
	var found []SourceInfo
	for _, src := range ClientSources(opt) {
		found = append(found, InspectSource(src))
	}
	return found, locs
}

// Text is discover's line for a source, then one line per note.
func (si SourceInfo) Text() string {
	status := "cannot read: " + si.Status
	if si.Status == "ok" {
		status = fmt.Sprintf("%d %s, %d %s", si.Servers, english.Plural(si.Servers, "server", "servers"), si.Tools, english.Plural(si.Tools, "tool", "tools"))
	}
	if si.Unverified {
		status += " (format unverified)"
	}
	out := fmt.Sprintf("%-14s %-8s %s: %s", si.Client, shortKind(si.Kind), sanitize.Text(si.Path), status)
	for _, n := range si.Notes {
		out += "\n  note: " + n
	}
	return out
}

// Text is discover's line for a location checked.
func (l SourceLocation) Text() string {
	s := fmt.Sprintf("  %-14s %-8s %s", l.Client, shortKind(l.Kind), sanitize.Text(l.Path))
	if l.Unverified {
		s += " (unverified)"
	}
	if l.Found > 0 {
		s += fmt.Sprintf(" [%d found]", l.Found)
	}
	return s
}

// kindNames are each source kind's name in a sentence ("VS Code's tool
// cache") and in discover's column.
var kindNames = map[string][2]string{
	sources.KindVSCodeToolCache:  {"tool cache", "cache"},
	sources.KindClaudeDesktopLog: {"MCP logs", "log"},
	sources.KindClaudeCodeLog:    {"MCP logs", "log"},
	sources.KindCursorMCPs:       {"tool files", "tools"},
	sources.KindMCPBManifest:     {"extension manifest", "manifest"},
}

func kindName(kind string) string {
	if n, ok := kindNames[kind]; ok {
		return n[0]
	}
	return kind
}

func shortKind(kind string) string {
	if n, ok := kindNames[kind]; ok {
		return n[1]
	}
	return kind
}
