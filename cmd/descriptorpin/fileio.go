package main

import (
	"fmt"
	"io/fs"
	"os"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
	"github.com/descriptorpin/descriptorpin/service"
)

func osGetenv(k string) string { return os.Getenv(k) }

// loadInventory reads and parses an inventory or an MCP client config;
// it also returns the file's mode for the writable_config rule and which
// of the two kinds the file is.
func loadInventory(path string) (*engine.Inventory, fs.FileMode, string, error) {
	data, mode, err := fileio.ReadWithMode("inventory", path, engine.MaxFileBytes)
	if err != nil {
		return nil, 0, "", err
	}
	home, _ := os.UserHomeDir()
	inv, kind, err := service.ParseAny(path, data, service.KindAuto, home)
	return inv, mode, kind, err
}

// loadPin reads, parses and verifies a pin file, and warns on stderr when
// the pin leaves out fields the default pins (pin.ExcludeWarning): scan,
// diff and approve would otherwise be silent about what it no longer
// guards.
func loadPin(e *env, path string) (*pin.Pin, error) {
	data, err := fileio.ReadCapped("pin", path, engine.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	p, err := pin.Load(path, data)
	if err == nil {
		if w := pin.ExcludeWarning(p); w != "" {
			fmt.Fprintf(e.stderr, "descriptorpin: warning: %s: %s\n", sanitize.Text(path), w)
		}
	}
	return p, err
}
