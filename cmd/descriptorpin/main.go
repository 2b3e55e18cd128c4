// Command descriptorpin pins the approved state of MCP tool descriptors and
// reports every shape that differs from it: rug pulls, shadowing, tool
// poisoning and risky transports. It is a CLI (pin, scan, diff, shadow,
// approve, version) and a per-user background service (watch).
//
// main only wires: every subcommand returns an error and one switch maps
// errors to the exit codes 0 clean, 1 findings, 2 usage or input error.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
