package main

import (
	"fmt"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/hostkey"
)

// The per-host digest key lives beside the service's default state
// directory, where the service keeps it (see internal/hostkey).
func readScanKey() (launch.Key, error) { return hostkey.ForScan(config.Default().StateDir) }

func pinKey(e *env) (launch.Key, error) {
	k, warn, err := hostkey.ForPin(config.Default().StateDir)
	if warn != "" {
		fmt.Fprintf(e.stderr, "descriptorpin: warning: %s\n", sanitize.Text(warn))
	}
	return k, err
}

// printNotes writes what a scan could not check to stderr.
func printNotes(e *env, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "descriptorpin: note: %s\n", sanitize.Text(n))
	}
}
