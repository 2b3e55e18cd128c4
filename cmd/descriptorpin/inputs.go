package main

import (
	"fmt"
	"runtime/debug"
	"slices"

	"github.com/descriptorpin/descriptorpin/service"
)

// loadInputs reads the files named or, with --discover, every file
// service.DiscoverTargets finds on this host and, but for approve, every
// client tool source (service.SourceInputs).
func loadInputs(e *env, cmd string, paths []string, discover bool) ([]service.Input, error) {
	switch {
	case discover && len(paths) > 0:
		return nil, usagef(cmd, "give files or --discover, not both")
	case discover:
		paths = service.ExistingTargets(service.Options{})
	case len(paths) == 0:
		return nil, usagef(cmd, "%s needs a file, or --discover", cmd)
	case len(paths) > 1 && slices.Contains(paths, stdio):
		return nil, usagef(cmd, "standard input (-) can only be read alone")
	}
	var out []service.Input
	for _, p := range paths {
		inv, mode, kind, err := loadInventory(e, p)
		if err != nil {
			return nil, err
		}
		out = append(out, service.Input{Path: p, Inv: inv, Mode: mode, Kind: kind})
	}
	if discover && cmd != "approve" {
		// And what the clients themselves received (approve takes files:
		// approving a cache would invent launch entries it does not hold).
		srcs, warnings := service.SourceInputs(service.Options{})
		for _, w := range warnings {
			fmt.Fprintf(e.stderr, "descriptorpin: warning: %s\n", w)
		}
		out = append(out, srcs...)
	}
	if discover && len(out) == 0 {
		return nil, &usageError{msg: "--discover found no MCP client config or tool source on this host", hint: "'descriptorpin discover --all' lists every location checked"}
	}
	return out, nil
}

// readAhead starts loadInputs for the one file named (not standard input,
// not --discover, which warns) while the pin loads; loading prints
// nothing. Nothing is collected until the result is asked for (what the
// loads allocate stays live), so the pin's text, garbage by then, does
// not raise the scan's heap goal.
func readAhead(e *env, cmd string, paths []string, discover bool) func() ([]service.Input, error) {
	if discover || len(paths) != 1 || paths[0] == stdio {
		return func() ([]service.Input, error) { return loadInputs(e, cmd, paths, discover) }
	}
	gc := debug.SetGCPercent(-1)
	var ins []service.Input
	done := make(chan error, 1)
	go func() { var err error; ins, err = loadInputs(e, cmd, paths, discover); done <- err }()
	return func() ([]service.Input, error) { err := <-done; debug.SetGCPercent(gc); return ins, err }
}
