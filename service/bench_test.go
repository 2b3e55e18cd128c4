package service

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/notify"
)

// BenchmarkChange is the daemon's work for one change of a watched,
// pinned file, in-process, with real files and the real event log (no
// watcher, no debounce): read, parse, scan, diff with the open findings,
// write the events, save the state. The file alternates between its
// clean form and one with one tool changed, as bench/service does;
// tools=1 is the one-tool file the issue compares with.
func BenchmarkChange(b *testing.B) {
	for _, c := range []struct{ servers, tools int }{{1, 1}, {20, 50}} {
		clean, changed, err := invgen.GenerateChange(invgen.Options{Servers: c.servers, Tools: c.tools, Seed: invgen.DefaultSeed})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(benchName(c.servers*c.tools), func(b *testing.B) {
			d, target := benchDaemon(b, clean)
			docs := [][]byte{changed, clean}
			b.ReportAllocs()
			i := 0
			var toEvents []time.Duration
			for b.Loop() {
				if err := os.WriteFile(target, docs[i%2], 0o644); err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				d.emit(d.scanTarget(d.targets[target])...)
				toEvents = append(toEvents, time.Since(start))
				d.housekeep()
				i++
			}
			// What the latency is made of: the read to the events written
			// (the state's write, fsync included, comes after), median and
			// 90th percentile over the changes.
			slices.Sort(toEvents)
			b.ReportMetric(float64(toEvents[len(toEvents)/2])/1e6, "events-p50-ms")
			b.ReportMetric(float64(toEvents[len(toEvents)*9/10])/1e6, "events-p90-ms")
		})
	}
}

func benchName(tools int) string {
	if tools == 1 {
		return "tools=1"
	}
	return "tools=1000"
}

// benchDaemon is a started daemon watching one pinned inventory of data,
// its start scan done.
func benchDaemon(b *testing.B, data []byte) (*Daemon, string) {
	b.Helper()
	dir := b.TempDir()
	target := filepath.Join(dir, "inv.json")
	if err := os.WriteFile(target, data, 0o644); err != nil {
		b.Fatal(err)
	}
	inv, err := inventory.Parse(target, data)
	if err != nil {
		b.Fatal(err)
	}
	p, err := pin.Build(inv, pin.Format2, pin.Approval{By: "b", Note: "b", At: "2026-01-01T00:00:00Z"})
	if err != nil {
		b.Fatal(err)
	}
	cfg := config.Default()
	cfg.Pin = filepath.Join(dir, "pin.json")
	cfg.StateDir = filepath.Join(dir, "state")
	cfg.Discover = false
	cfg.RescanInterval = 0
	cfg.Capture.Enabled = false
	cfg.Log.File = filepath.Join(dir, "events.jsonl")
	cfg.Log.Stderr = false
	cfg.Targets = []config.Target{{Path: target, Kind: config.KindInventory}}
	if err := os.WriteFile(cfg.Pin, p.Marshal(), 0o644); err != nil {
		b.Fatal(err)
	}
	log, err := notify.NewEventLog(notify.EventLogOptions{File: cfg.Log.File, Host: "benchhost", Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = log.Close() })
	d := New(cfg, &Sinks{Log: log}, Options{Home: dir, User: "b", Host: "benchhost", Version: "bench", Getenv: func(string) string { return "" }})
	if err := os.MkdirAll(cfg.StateDir, 0o700); err != nil {
		b.Fatal(err)
	}
	d.loadState()
	d.startPin()
	d.scanAll()
	d.housekeep()
	return d, target
}
