package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/descriptorpin/descriptorpin/capture"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/clientconfig"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/english"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
	"github.com/descriptorpin/descriptorpin/service"
)

func init() {
	register(&command{
		name:    "inventory",
		summary: "capture servers' tool lists over MCP into an inventory",
		usage: `Usage: descriptorpin inventory CONFIG -o INVENTORY [--server NAME]... [--timeout 30s] [--allow-exec] [--identify-as NAME]...

Connects to each server of an MCP client config (any format 'discover'
finds), asks it for its tools (initialize, then tools/list following every
nextCursor), shuts it down, and writes the inventory that 'pin', 'scan' and
the service read. Servers keep the names 'pin' and 'scan' give them in the
config ("cursor:files"), so pins of the config and of the inventory agree.
This is the only command that talks to a server, and only when it is run.

Consent. A stdio server is a command line from a config file: running it
runs that command. Without --allow-exec the command lines are listed and
nothing runs (exit 2); at a terminal you are asked first. HTTP servers
need no flag: they are reached at their URL (streamable HTTP, then SSE as
the fallback) with the config's headers.

Environment. A stdio server gets its config's env, plus from yours only
HOME, LOGNAME, PATH, SHELL, TERM and USER (on Windows APPDATA, HOMEDRIVE,
HOMEPATH, LOCALAPPDATA, PATH, PROCESSOR_ARCHITECTURE, SYSTEMDRIVE,
SYSTEMROOT, TEMP, USERNAME, USERPROFILE, PROGRAMFILES): the set clients
built on the official SDK pass. ${env:NAME}, ${NAME}, ${NAME:-default} and
${userHome} in the command, args, env, URL and headers are resolved from
your environment. The inventory records no env or header value.

Failures. A server that does not start, exits, hangs past --timeout, sends
something that is not a valid tool list, or a message over 16 MiB, is
reported with the reason and left out; the others are captured. When no
server at all is captured, an existing INVENTORY is left as it was.

Flags:
  -o, --out INVENTORY   the inventory to write (required; replaced atomically)
  --server NAME         capture only this server (repeatable): its name in the
                        inventory ("cursor:files") or in the config ("files");
                        a server the config disables is captured only if named
  --timeout DURATION    for one server to start, initialize and list its tools
                        (default 30s); a stdio server is then killed with its
                        process group
  --allow-exec          run the stdio servers' commands without asking
  --identify-as NAME    list each server's tools again, sending NAME as
                        clientInfo.name (repeatable); a server must show every
                        client the same tools, so any difference from the list
                        it gave "descriptorpin" is a BAIT-AND-SWITCH finding

Exit codes: 0 every server captured and no probe difference; 1 every server
captured and a --identify-as probe found a difference; 2 a usage or config
error, no consent, or a server not captured or whose probe failed (the
inventory still holds the servers that were captured).

Example:
  descriptorpin inventory ~/.cursor/mcp.json -o inventory.json --allow-exec
  descriptorpin pin inventory.json -o pin.json
  descriptorpin inventory ~/.cursor/mcp.json -o inventory.json --allow-exec \
      --identify-as claude-ai
  descriptorpin scan inventory.json -p pin.json
`,
		run: runInventory,
	})
}

func runInventory(e *env, args []string) error {
	c := lookup("inventory")
	fs := newFlags(e, c)
	var out string
	var servers, identities stringList
	var timeout time.Duration
	var allowExec bool
	fs.StringVar(&out, "o", "", "")
	fs.StringVar(&out, "out", "", "")
	fs.Var(&servers, "server", "")
	fs.Var(&identities, "identify-as", "")
	fs.DurationVar(&timeout, "timeout", capture.DefaultTimeout, "")
	fs.BoolVar(&allowExec, "allow-exec", false, "")
	pos, err := parseFlags(e, c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef(c.name, "inventory takes one client config file, got %d arguments", len(pos))
	}
	if out == "" {
		return usagef(c.name, "the following flag is required: -o/--out")
	}
	if timeout <= 0 || timeout > time.Hour {
		return usagef(c.name, "--timeout must be more than 0 and at most 1h, got %s", timeout)
	}
	ids, err := probeIdentities(identities)
	if err != nil {
		return err
	}
	cfgPath := pos[0]
	if same(cfgPath, out) {
		return usagef(c.name, "the output %q is the config itself", sanitize.Text(out))
	}
	inv, err := loadClientConfig(cfgPath)
	if err != nil {
		return err
	}
	selected, skipped, err := selectServers(inv, servers)
	if err != nil {
		return err
	}
	// Stdio servers run in process groups of their own, out of reach of a
	// Ctrl-C at the terminal: the first SIGINT or SIGTERM stops every
	// server and ends the command with nothing written; a second one has
	// its default effect at once.
	ctx, stop := signal.NotifyContext(e.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }()
	ie := *e
	ie.ctx = ctx
	e = &ie

	home, _ := os.UserHomeDir()
	opt := capture.Options{Timeout: timeout, ClientVersion: version, Lookup: os.LookupEnv, Home: home, GOOS: runtime.GOOS}
	if err := consent(e, cfgPath, selected, allowExec, opt); err != nil {
		return err
	}

	results := service.CaptureAll(e.ctx, selected, ids, opt)
	if e.ctx.Err() != nil {
		return errors.New("interrupted; nothing written")
	}

	sort.Slice(results, func(i, j int) bool { return results[i].Server.Name < results[j].Server.Name })
	var ok []*capture.Result
	var failed, probeFailed []string
	diffs := 0
	tools := 0
	for _, r := range results {
		name := sanitize.Text(r.Server.Name)
		if r.Main.Err != nil {
			fmt.Fprintf(e.stdout, "failed   %s: %s\n", name, r.Main.Err)
			failed = append(failed, name)
			continue
		}
		ok = append(ok, r.Main)
		tools += len(r.Main.Tools)
		fmt.Fprintf(e.stdout, "captured %s: %d %s (%s)\n", name, len(r.Main.Tools), english.Plural(len(r.Main.Tools), "tool", "tools"), describe(r.Main))
		for i, p := range r.Probes {
			if i < len(r.Diffs) && r.Diffs[i] != nil {
				d := r.Diffs[i]
				if d.Empty() {
					fmt.Fprintf(e.stdout, "probed   %s as %q: the same tools\n", name, sanitize.Text(p.Identity))
					continue
				}
				diffs++
				fmt.Fprintf(e.stdout, "BAIT-AND-SWITCH %s: as %q the server lists other tools than as %q: %s\n",
					name, sanitize.Text(d.Identity), sanitize.Text(d.Baseline), describeDiff(d))
			}
		}
		if r.Err != nil {
			fmt.Fprintf(e.stdout, "failed   %s: %s\n", name, r.Err)
			probeFailed = append(probeFailed, name)
		}
	}
	for _, s := range skipped {
		fmt.Fprintf(e.stdout, "skipped  %s: disabled in the config (name it with --server to capture it)\n", sanitize.Text(s.Name))
	}

	if len(ok) == 0 && len(failed) > 0 {
		return fmt.Errorf("no server captured (%d failed); %q left as it was", len(failed), sanitize.Text(out))
	}
	doc, err := capture.Document(ok)
	if err != nil {
		return err
	}
	if len(doc) > engine.MaxFileBytes {
		return &usageError{msg: fmt.Sprintf("the inventory would be %d MiB, larger than the %d MiB an inventory may be; nothing written", len(doc)>>20, engine.MaxFileBytes>>20),
			hint: "capture fewer servers at once with --server"}
	}
	if _, err := inventory.Parse(out, doc); err != nil {
		return fmt.Errorf("the captured inventory does not parse (a bug): %w", err)
	}
	if err := fileio.WriteAtomic(out, doc, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %d %s and %d %s to %s\n", len(ok), english.Plural(len(ok), "server", "servers"), tools, english.Plural(tools, "tool", "tools"), sanitize.Text(out))
	var problems []string
	if len(failed) > 0 {
		problems = append(problems, fmt.Sprintf("%d of %d %s not captured: %s", len(failed), len(results), english.Plural(len(results), "server", "servers"), strings.Join(failed, ", ")))
	}
	if len(probeFailed) > 0 {
		problems = append(problems, fmt.Sprintf("the --identify-as probe of %d %s failed: %s", len(probeFailed), english.Plural(len(probeFailed), "server", "servers"), strings.Join(probeFailed, ", ")))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	if diffs > 0 {
		return errFindings
	}
	return nil
}

func probeIdentities(list []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, id := range list {
		id = strings.TrimSpace(id)
		switch {
		case id == "":
			return nil, usagef("inventory", "--identify-as needs a client name")
		case id == capture.DefaultIdentity:
			return nil, usagef("inventory", "--identify-as %q is the name every capture already uses", id)
		case seen[id]:
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	return out, nil
}

// same reports whether two paths name one existing file.
func same(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// loadClientConfig reads an MCP client config and names its servers as
// service.ParseAny does ("client:name").
func loadClientConfig(path string) (*engine.Inventory, error) {
	data, err := fileio.ReadCapped("client config", path, engine.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	inv, _, err := clientconfig.ParseWith(path, data, clientconfig.Options{Home: home})
	if errors.Is(err, clientconfig.ErrInventory) {
		return nil, &usageError{msg: fmt.Sprintf("%s is a DescriptorPin inventory, not an MCP client config", sanitize.Text(path)),
			hint: "give the client config the servers are launched from (see 'descriptorpin discover')"}
	}
	if err != nil {
		return nil, err
	}
	service.Qualify(inv)
	return inv, nil
}

// selectServers picks the servers named with --server (by inventory name or
// by the config's own name), or every enabled server.
func selectServers(inv *engine.Inventory, names []string) (selected, skipped []*engine.Server, err error) {
	if len(names) == 0 {
		for _, s := range inv.Servers {
			if s.Disabled {
				skipped = append(skipped, s)
			} else {
				selected = append(selected, s)
			}
		}
		return selected, skipped, nil
	}
	picked := map[*engine.Server]bool{}
	for _, n := range names {
		var match []*engine.Server
		for _, s := range inv.Servers {
			if s.Name == n {
				match = []*engine.Server{s}
				break
			}
			if s.Client != "" && strings.TrimPrefix(s.Name, s.Client+":") == n {
				match = append(match, s)
			}
		}
		switch len(match) {
		case 0:
			known := make([]string, 0, len(inv.Servers))
			for _, s := range inv.Servers {
				known = append(known, sanitize.Text(s.Name))
			}
			hint := "the config declares no servers"
			if len(known) > 0 {
				hint = "the config's servers are: " + strings.Join(known, ", ")
			}
			return nil, nil, &usageError{msg: fmt.Sprintf("no server %q in %s", sanitize.Text(n), sanitize.Text(inv.File)), hint: hint}
		case 1:
		default:
			return nil, nil, usagef("inventory", "--server %q names %d servers; use the full name", sanitize.Text(n), len(match))
		}
		if !picked[match[0]] {
			picked[match[0]] = true
			selected = append(selected, match[0])
		}
	}
	return selected, nil, nil
}

// consent lists the stdio servers' command lines and runs nothing without
// --allow-exec or a "yes" typed at a terminal.
func consent(e *env, cfg string, servers []*engine.Server, allowExec bool, opt capture.Options) error {
	var stdio []*engine.Server
	for _, s := range servers {
		if s.Transport == "stdio" {
			stdio = append(stdio, s)
		}
	}
	if len(stdio) == 0 || allowExec {
		return nil
	}
	fmt.Fprintf(e.stderr, "descriptorpin: capturing runs %d %s from %s:\n", len(stdio), english.Plural(len(stdio), "command", "commands"), sanitize.Text(cfg))
	for _, s := range stdio {
		fmt.Fprintf(e.stderr, "  %s: %s\n", sanitize.Text(s.Name), capture.CommandLine(s))
		var notes []string
		if p, err := capture.Program(s, opt); err == nil {
			notes = append(notes, "runs "+sanitize.Text(p))
		} else {
			notes = append(notes, "will not start: "+sanitize.Text(err.Error()))
		}
		if len(s.EnvKeys) > 0 {
			notes = append(notes, "env from the config: "+sanitize.Text(strings.Join(s.EnvKeys, ", ")))
		}
		fmt.Fprintf(e.stderr, "      (%s)\n", strings.Join(notes, "; "))
	}
	fmt.Fprintf(e.stderr, "each also gets %s from your environment, nothing else of it\n", strings.Join(capture.InheritedEnv(opt.GOOS), ", "))
	n := len(stdio)
	if isTerminal(e.stdin) {
		fmt.Fprintf(e.stderr, "Run %s now? [y/N] ", english.Plural(n, "this command", fmt.Sprintf("these %d commands", n)))
		if yes(e.ctx, e.stdin, e.stderr) {
			return nil
		}
		return &usageError{msg: "not running commands from a config file without consent"}
	}
	return &usageError{msg: fmt.Sprintf("not running %d %s from a config file without consent", n, english.Plural(n, "command", "commands")),
		hint: "review the command lines above, then re-run with --allow-exec (or name only HTTP servers with --server)"}
}

// isTerminal reports whether r is a character device other than the null
// device: a terminal, where a person can answer.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
		return false
	}
	return true
}

// yes reads one answer line; only "y" or "yes" is consent.
func yes(ctx context.Context, r io.Reader, w io.Writer) bool {
	ans := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		ans <- line
	}()
	select {
	case line := <-ans:
		if !strings.HasSuffix(line, "\n") {
			fmt.Fprintln(w) // no answer: end the prompt's line
		}
		a := strings.ToLower(strings.TrimSpace(line))
		return a == "y" || a == "yes"
	case <-ctx.Done():
		return false
	}
}

func describe(r *capture.Result) string {
	parts := []string{sanitize.Text(r.Server.Transport)}
	if r.Via != "" && r.Via != r.Server.Transport {
		parts[0] += " via " + r.Via
	}
	if r.Pages > 1 {
		parts = append(parts, fmt.Sprintf("%d pages", r.Pages))
	}
	if r.ServerInfo != "" {
		parts = append(parts, fmt.Sprintf("server %q", sanitize.Text(sanitize.Clip(r.ServerInfo, 60))))
	}
	if r.Protocol != "" {
		parts = append(parts, "protocol "+sanitize.Text(sanitize.Clip(r.Protocol, 20)))
	}
	return strings.Join(parts, ", ")
}

func describeDiff(d *capture.Difference) string {
	names := func(ns []string) string {
		q := make([]string, len(ns))
		for i, n := range ns {
			q[i] = sanitize.Text(sanitize.Clip(n, 80))
		}
		return strings.Join(q, ", ")
	}
	var parts []string
	if len(d.Added) > 0 {
		parts = append(parts, "added "+names(d.Added))
	}
	if len(d.Removed) > 0 {
		parts = append(parts, "removed "+names(d.Removed))
	}
	for _, ch := range d.Changed {
		parts = append(parts, fmt.Sprintf("changed %s (%s)", sanitize.Text(sanitize.Clip(ch.Tool, 80)), strings.Join(ch.Fields, ", ")))
	}
	return strings.Join(parts, "; ")
}
