package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
	"github.com/descriptorpin/descriptorpin/service"
)

func osGetenv(k string) string { return os.Getenv(k) }

// stdio is the name that means standard input (or output) where a file
// name goes.
const stdio = "-"

// readInput reads a file, or standard input for "-", with the same cap:
// the inventory cap, or the pin cap for a pin.
func readInput(e *env, what, path string) ([]byte, fs.FileMode, error) {
	limit := int64(engine.MaxFileBytes)
	if what == "pin" {
		limit = pin.MaxBytes
	}
	return fileio.ReadInput(e.stdin, what, path, limit)
}

// loadInventory reads and parses an inventory or an MCP client config;
// it also returns the file's mode for the writable_config rule and which
// of the two kinds the file is.
func loadInventory(e *env, path string) (*engine.Inventory, fs.FileMode, string, error) {
	data, mode, err := readInput(e, "inventory", path)
	if err != nil {
		return nil, 0, "", err
	}
	home, _ := os.UserHomeDir()
	inv, kind, err := service.ParseOwned(path, data, service.KindAuto, home) // data is not used again
	return inv, mode, kind, err
}

// loadPin reads, parses and verifies a pin file, and warns on stderr when
// the pin leaves out fields the default pins (pin.ExcludeWarning): scan,
// diff and approve would otherwise be silent about what it no longer
// guards.
func loadPin(e *env, path string) (*pin.Pin, error) {
	data, _, err := readInput(e, "pin", path)
	if err != nil {
		return nil, err
	}
	p, err := pin.LoadString(path, fileio.AsString(data)) // data is not used again
	if err == nil {
		if w := pin.ExcludeWarning(p); w != "" {
			fmt.Fprintf(e.stderr, "descriptorpin: warning: %s: %s\n", sanitize.Text(path), w)
		}
	}
	return p, err
}

// oneStdin refuses two inputs read from standard input.
func oneStdin(cmd string, paths ...string) error {
	n := 0
	for _, p := range paths {
		if p == stdio {
			n++
		}
	}
	if n > 1 {
		return usagef(cmd, "only one of the files can be read from standard input (-)")
	}
	return nil
}

// loadConfig is config.LoadOrDefault; a --config file that does not exist
// is a usage error with the way out, not a bare stat error.
func loadConfig(path string) (config.Config, error) {
	cfg, err := config.LoadOrDefault(path)
	if path != "" && errors.Is(err, fs.ErrNotExist) {
		return cfg, &usageError{msg: fmt.Sprintf("config file %q does not exist", sanitize.Text(path)),
			hint: "write one from the example 'descriptorpin help config' prints, or leave out --config to use the defaults"}
	}
	return cfg, err
}
