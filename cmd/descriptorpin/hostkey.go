package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/hostkey"
)

// hostKeyPath is the per-host digest key beside the service's default
// state directory, the place the service keeps it.
func hostKeyPath() string {
	dir := config.Default().StateDir
	if dir == "" {
		return ""
	}
	return hostkey.Path(dir)
}

// readScanKey reads the host key for a scan, which never creates one: without
// it the scan notes that values were not compared. A key file that exists
// but is unreadable, malformed or exposed is an error.
func readScanKey() (launch.Key, error) {
	p := hostKeyPath()
	if p == "" {
		return nil, nil
	}
	k, err := hostkey.Load(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return k, err
}

// pinKey reads or creates the host key for pin and approve. When it cannot
// be created (no writable state directory) the pin records no value
// digests and a warning says so; an existing bad key file is an error.
func pinKey(e *env) (launch.Key, error) {
	p := hostKeyPath()
	if p == "" {
		fmt.Fprintf(e.stderr, "descriptorpin: warning: no state directory for the host key: launch values are pinned without digests\n")
		return nil, nil
	}
	if k, err := hostkey.Load(p); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	k, err := hostkey.LoadOrCreate(p)
	if err != nil {
		fmt.Fprintf(e.stderr, "descriptorpin: warning: %s: launch values are pinned without digests\n", sanitize.Text(err.Error()))
		return nil, nil
	}
	return k, nil
}

// printNotes writes what a scan could not check to stderr.
func printNotes(e *env, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "descriptorpin: note: %s\n", sanitize.Text(n))
	}
}
