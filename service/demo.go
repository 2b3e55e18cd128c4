package service

import (
	"os"
	"path/filepath"
	"time"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/samples"
)

// DemoConfig lays out the demo in dir: a copy of the clean sample
// inventory and the sample pin, and a config that watches that one file
// with a short debounce, no discovery and the event log in dir/state.
// It returns the config and the inventory's path (what the demo edits).
func DemoConfig(dir string) (config.Config, string, error) {
	inv := filepath.Join(dir, "inventory.json")
	for name, dst := range map[string]string{"inventory_clean.json": inv, "pin.json": filepath.Join(dir, "pin.json")} {
		data, err := samples.FS.ReadFile(name)
		if err != nil {
			return config.Config{}, "", err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return config.Config{}, "", err
		}
	}
	cfg := config.Default()
	cfg.Pin = filepath.Join(dir, "pin.json")
	cfg.StateDir = filepath.Join(dir, "state")
	cfg.Discover = false
	cfg.Targets = []config.Target{{Path: inv, Kind: config.KindInventory}}
	cfg.Debounce = 100 * time.Millisecond
	cfg.RescanInterval = 0
	cfg.Log.File = filepath.Join(dir, "state", "events.jsonl")
	cfg.Log.Stderr = false
	return cfg, inv, nil
}
