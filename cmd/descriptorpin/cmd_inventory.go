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
	"github.com/descriptorpin/descriptorpin/service"
)

func init() {
	register(&command{
		name:    "inventory",
		summary: "capture servers' tool lists over MCP into an inventory",
		run:     runInventory,
	})
}

func runInventory(e *env, args []string) error {
	c := lookup("inventory")
	fs := newFlags(e, c)
	var out string
	var servers, identities stringList
	var timeout time.Duration
	var allowExec, fromClients bool
	fs.BoolVar(&fromClients, "from-clients", false, "")
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
	if out == "" {
		return usagef(c.name, "the following flag is required: -o/--out")
	}
	if fromClients {
		if len(pos) > 0 {
			return usagef(c.name, "--from-clients takes no config file")
		}
		return inventoryFromClients(e, out)
	}
	if len(pos) != 1 {
		return usagef(c.name, "inventory takes one client config file, got %d arguments", len(pos))
	}
	if timeout <= 0 || timeout > time.Hour {
		return usagef(c.name, "--timeout must be more than 0 and at most 1h, got %s", timeout)
	}
	ids, err := capture.ProbeIdentities(identities)
	if err != nil {
		return captureArgErr(err)
	}
	cfgPath := pos[0]
	if fileio.SameFile(cfgPath, out) {
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

// inventoryFromClients writes what the clients' caches and logs hold:
// it reads files only and launches nothing.
func inventoryFromClients(e *env, out string) error {
	doc, infos := service.ClientInventory(service.ClientSources(service.Options{}))
	servers, tools := 0, 0
	for _, si := range infos {
		fmt.Fprintln(e.stdout, si.Text())
		servers, tools = servers+si.Servers, tools+si.Tools
	}
	if _, err := inventory.Parse(out, doc); err != nil {
		return fmt.Errorf("the clients' inventory does not parse (a bug): %w", err)
	}
	if err := fileio.WriteAtomic(out, doc, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %d %s and %d %s from %d client %s to %s\n", servers, english.Plural(servers, "server", "servers"),
		tools, english.Plural(tools, "tool", "tools"), len(infos), english.Plural(len(infos), "source", "sources"), sanitize.Text(out))
	return nil
}
