package service

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/watcher"
)

// TestStateDirDeletedWhileIdleIsRecreated: with the real watcher and no
// periodic check (the retry timer an hour away), rm -rf of the state
// directory while nothing else happens is noticed through the watch on
// the state file: the state is written anew and the event says so.
func TestStateDirDeletedWhileIdleIsRecreated(t *testing.T) {
	h := newHarness(t, "inv.json")
	h.write("inv.json", invClean)
	h.pinFrom(invClean, nil)
	h.cfg.Debounce = 20 * time.Millisecond
	h.opt.CheckInterval = time.Hour
	h.opt.Watch = func(paths []string, o watcher.Options) (Watcher, error) {
		if !slices.Contains(paths, filepath.Join(h.cfg.StateDir, StateFile)) {
			t.Errorf("the state file is not watched: %v", paths)
		}
		return watcher.New(paths, o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(h.cfg, h.rec, h.opt).Run(ctx) }()
	defer func() { cancel(); <-done }()
	state := filepath.Join(h.cfg.StateDir, StateFile)
	exists := func() bool { _, err := os.Stat(state); return err == nil }
	waitFor(t, "the state written at start", exists)
	removeStateDir(t, h.cfg.StateDir)
	waitFor(t, "the state recreated", func() bool {
		for _, ev := range h.rec.events() {
			if ev.Action == engine.ActionStateRecreated {
				return exists()
			}
		}
		return false
	})
}
