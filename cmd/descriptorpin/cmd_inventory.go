package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/descriptorpin/descriptorpin/capture"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/english"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
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
	ids, err := capture.ProbeIdentities(identities)
	if err != nil {
		return captureArgErr(err)
	}
	cfgPath := pos[0]
	if same(cfgPath, out) {
		return usagef(c.name, "the output %q is the config itself", sanitize.Text(out))
	}
	inv, err := loadClientConfig(cfgPath)
	if err != nil {
		return err
	}
	selected, skipped, err := capture.Select(inv, servers)
	if err != nil {
		return captureArgErr(err)
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

	results := capture.CaptureAll(e.ctx, selected, ids, opt)
	if e.ctx.Err() != nil {
		return errors.New("interrupted; nothing written")
	}
	sort.Slice(results, func(i, j int) bool { return results[i].Server.Name < results[j].Server.Name })
	t := writeCaptured(e.stdout, results, skipped)

	if len(t.ok) == 0 && len(t.failed) > 0 {
		return fmt.Errorf("no server captured (%d failed); %q left as it was", len(t.failed), sanitize.Text(out))
	}
	doc, err := capture.Document(t.ok)
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
	fmt.Fprintf(e.stdout, "wrote %d %s and %d %s to %s\n", len(t.ok), english.Plural(len(t.ok), "server", "servers"), t.tools, english.Plural(t.tools, "tool", "tools"), sanitize.Text(out))
	var problems []string
	if len(t.failed) > 0 {
		problems = append(problems, fmt.Sprintf("%d of %d %s not captured: %s", len(t.failed), len(results), english.Plural(len(results), "server", "servers"), strings.Join(t.failed, ", ")))
	}
	if len(t.probeFailed) > 0 {
		problems = append(problems, fmt.Sprintf("the --identify-as probe of %d %s failed: %s", len(t.probeFailed), english.Plural(len(t.probeFailed), "server", "servers"), strings.Join(t.probeFailed, ", ")))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	if t.diffs > 0 {
		return errFindings
	}
	return nil
}

// captureArgErr is a capture.ArgError as a usage error of inventory.
func captureArgErr(err error) error {
	var ae *capture.ArgError
	if errors.As(err, &ae) {
		return &usageError{cmd: "inventory", msg: ae.Msg, hint: ae.Hint}
	}
	return err
}
