// Command descriptorpin pins the approved state of MCP tool descriptors and
// reports every shape that differs from it: rug pulls, shadowing, tool
// poisoning and risky transports. It is a CLI (pin, scan, diff, shadow,
// approve, version) and a per-user background service (watch).
//
// main only wires: every subcommand returns an error and one switch maps
// errors to the exit codes 0 clean, 1 findings, 2 usage, input or config
// error, 3 a runtime failure of the service (restartable).
package main

import (
	"context"
	"os"
)

// main leaves SIGINT and SIGTERM their default effect, so Ctrl-C stops a
// long scan; the commands that must shut down cleanly (watch, demo)
// handle the signals themselves.
func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
