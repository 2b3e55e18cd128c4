package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/descriptorpin/descriptorpin/capture"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/clientconfig"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/english"
	"github.com/descriptorpin/descriptorpin/service"
)

// What 'descriptorpin inventory' prints: the consent listing, one line per
// server captured, failed, probed or skipped.

// loadClientConfig reads an MCP client config (service.ReadClientConfig),
// with a hint when it is an inventory.
func loadClientConfig(path string) (*engine.Inventory, error) {
	home, _ := os.UserHomeDir()
	inv, err := service.ReadClientConfig(path, home)
	if errors.Is(err, clientconfig.ErrInventory) {
		return nil, &usageError{msg: fmt.Sprintf("%s is a DescriptorPin inventory, not an MCP client config", sanitize.Text(path)),
			hint: "give the client config the servers are launched from (see 'descriptorpin discover')"}
	}
	return inv, err
}

// consent lists the stdio servers' command lines and runs nothing without
// --allow-exec or a "yes" typed at a terminal.
func consent(e *env, cfg string, servers []*engine.Server, allowExec bool, opt capture.Options) error {
	stdio := capture.NeedsConsent(servers)
	if len(stdio) == 0 || allowExec {
		return nil
	}
	fmt.Fprintf(e.stderr, "descriptorpin: capturing runs %d %s from %s:\n", len(stdio), english.Plural(len(stdio), "command", "commands"), sanitize.Text(cfg))
	for _, s := range stdio {
		fmt.Fprintf(e.stderr, "  %s: %s\n", sanitize.Text(s.Name), capture.CommandLine(s))
		fmt.Fprintf(e.stderr, "      (%s)\n", strings.Join(capture.ConsentNotes(s, opt), "; "))
	}
	fmt.Fprintf(e.stderr, "each also gets %s from your environment, nothing else of it\n", strings.Join(capture.InheritedEnv(opt.GOOS), ", "))
	n := len(stdio)
	if capture.IsTerminal(e.stdin) {
		fmt.Fprintf(e.stderr, "Run %s now? [y/N] ", english.Plural(n, "this command", fmt.Sprintf("these %d commands", n)))
		if capture.AskYes(e.ctx, e.stdin, e.stderr) {
			return nil
		}
		return &usageError{msg: "not running commands from a config file without consent"}
	}
	return &usageError{msg: fmt.Sprintf("not running %d %s from a config file without consent", n, english.Plural(n, "command", "commands")),
		hint: "review the command lines above, then re-run with --allow-exec (or name only HTTP servers with --server)"}
}

// tally is what writeCaptured counted.
type tally struct {
	ok                  []*capture.Result
	failed, probeFailed []string
	diffs, tools        int
}

// writeCaptured prints one line per server (and per probe) and counts.
func writeCaptured(w io.Writer, results []*capture.Captured, skipped []*engine.Server) tally {
	var t tally
	for _, r := range results {
		name := sanitize.Text(r.Server.Name)
		if r.Main.Err != nil {
			fmt.Fprintf(w, "failed   %s: %s\n", name, r.Main.Err)
			t.failed = append(t.failed, name)
			continue
		}
		t.ok = append(t.ok, r.Main)
		t.tools += len(r.Main.Tools)
		fmt.Fprintf(w, "captured %s: %d %s (%s)\n", name, len(r.Main.Tools), english.Plural(len(r.Main.Tools), "tool", "tools"), r.Main.Describe())
		for i, p := range r.Probes {
			if i < len(r.Diffs) && r.Diffs[i] != nil {
				d := r.Diffs[i]
				if d.Empty() {
					fmt.Fprintf(w, "probed   %s as %q: the same tools\n", name, sanitize.Text(p.Identity))
					continue
				}
				t.diffs++
				fmt.Fprintf(w, "BAIT-AND-SWITCH %s: as %q the server lists other tools than as %q: %s\n",
					name, sanitize.Text(d.Identity), sanitize.Text(d.Baseline), d.Describe())
			}
		}
		if r.Err != nil {
			fmt.Fprintf(w, "failed   %s: %s\n", name, r.Err)
			t.probeFailed = append(t.probeFailed, name)
		}
	}
	for _, s := range skipped {
		fmt.Fprintf(w, "skipped  %s: disabled in the config (name it with --server to capture it)\n", sanitize.Text(s.Name))
	}
	return t
}
