package main

import (
	"slices"

	"github.com/descriptorpin/descriptorpin/service"
)

// loadInputs reads the files named or, with --discover, every file
// service.DiscoverTargets finds on this host.
func loadInputs(e *env, cmd string, paths []string, discover bool) ([]service.Input, error) {
	switch {
	case discover && len(paths) > 0:
		return nil, usagef(cmd, "give files or --discover, not both")
	case discover:
		if paths = service.ExistingTargets(service.Options{}); len(paths) == 0 {
			return nil, &usageError{msg: "--discover found no MCP client config on this host", hint: "'descriptorpin discover --all' lists every location checked"}
		}
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
	return out, nil
}
