package service

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
)

const invOther = `{"servers": [{"name": "wiki", "transport": "http", "url": "https://wiki.example.test/mcp", "tools": [
  {"name": "search", "description": "Search the wiki."}]},
  {"name": "tickets", "transport": "http", "url": "https://tickets.example.test/mcp", "tools": [
  {"name": "open", "description": "Open a ticket."}]}]}
`

// The first-use pin records which file each server came from, and a
// server removed from one file is REMOVED for that file only: the other
// file's scan stays quiet.
func TestSharedPinIsComparedPerFile(t *testing.T) {
	h := newHarness(t, "a.json", "b.json")
	h.write("a.json", invClean)
	h.write("b.json", invOther)
	h.start()
	if got := summary(h.next()); !slices.Equal(got, []string{"daemon-started", "pin-created"}) {
		t.Fatalf("at start: %v", got)
	}
	data, err := os.ReadFile(h.path("pin.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := pin.Load("pin.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Sources(); !slices.Equal(got, []string{"~/a.json", "~/b.json"}) {
		t.Errorf("sources %v", got)
	}
	h.write("b.json", strings.Replace(invOther, `{"name": "wiki", "transport": "http", "url": "https://wiki.example.test/mcp", "tools": [
  {"name": "search", "description": "Search the wiki."}]},
  `, "", 1))
	h.changed("b.json")
	h.changed("a.json")
	evs := h.next()
	if got := summary(evs); !slices.Equal(got, []string{"finding-opened REMOVED", "finding-opened REMOVED"}) {
		for _, ev := range evs {
			t.Logf("%s %s %s", ev.File, ev.Finding.Subject, ev.Message)
		}
		t.Fatalf("after removing wiki from b.json: %v", got)
	}
	for i, want := range []string{"wiki/search", "wiki"} {
		if evs[i].File != h.path("b.json") || evs[i].Finding.Subject != want {
			t.Errorf("REMOVED %s in %s, want %s in b.json", evs[i].Finding.Subject, evs[i].File, want)
		}
	}
}

// A scheduled capture's inventory is silent while it does not exist yet,
// its first tool list is trusted on first use (a pin change, not ADDED
// findings), and a later change of it is a finding.
func TestFirstCaptureIsTrustedOnFirstUse(t *testing.T) {
	h := newHarness(t)
	h.cfg.Targets = []config.Target{{Path: h.path("client.json"), Kind: config.KindClientConfig}}
	h.write("client.json", `{"mcpServers": {"files": {"type": "http", "url": "https://files.example.test/mcp"}}}`)
	out := h.path("captured.json")
	h.cfg.Capture = config.Capture{Enabled: true, Interval: time.Hour, Timeout: time.Second,
		Configs: []config.CaptureConfig{{Path: h.path("client.json"), Output: out}}}
	// The capture writes its output only once the start events are read,
	// and atomically, as the real capture does: a scan never sees it half
	// written, and the start events do not depend on timing.
	release, captured := make(chan struct{}), make(chan struct{})
	h.opt.Capture = func(ctx context.Context, cc config.CaptureConfig, p *pin.Pin) []engine.Event {
		defer close(captured)
		if p == nil || p.Server("files") == nil {
			t.Errorf("capture ran without the first-use pin of the launch config")
		}
		<-release
		if err := fileio.WriteAtomic(out, []byte(invClean), 0o600); err != nil {
			t.Error(err)
		}
		return nil
	}
	h.start()
	got := summary(h.next())
	close(release)
	<-captured
	if !slices.Equal(got, []string{"daemon-started", "pin-created"}) {
		t.Fatalf("at start: %v (a missing capture output must be silent)", got)
	}
	h.changed("captured.json")
	evs := h.next()
	if got := summary(evs); !slices.Equal(got, []string{"pin-changed"}) {
		for _, ev := range evs {
			t.Logf("%s %s", ev.File, ev.Message)
		}
		t.Fatalf("first capture: %v", got)
	}
	if !strings.Contains(evs[0].Message, "first capture of files: trusted 2 tools on first use") {
		t.Errorf("message %q", evs[0].Message)
	}
	data, _ := os.ReadFile(h.path("pin.json"))
	if p, err := pin.Load("pin.json", data); err != nil || p.Tool("files/read_file") == nil {
		t.Fatalf("pin after the first capture: %v", err)
	}
	h.write("captured.json", invChanged)
	h.changed("captured.json")
	if got := summary(h.next()); !slices.Equal(got, []string{"finding-opened MUTATION"}) {
		t.Fatalf("second capture: %v", got)
	}
}

// SourceNames prefers the pin's directory, then home, then the absolute
// path, with forward slashes.
func TestSourceNames(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(home, "repo")
	got := SourceNames(filepath.Join(repo, "inv.json"), filepath.Join(repo, "pin.json"), home)
	want := []string{"./inv.json", "~/repo/inv.json", filepath.ToSlash(filepath.Join(repo, "inv.json"))}
	if !slices.Equal(got, want) {
		t.Errorf("SourceNames = %v, want %v", got, want)
	}
	if got := SourceNames(filepath.Join(home, ".cursor", "mcp.json"), filepath.Join(home, ".config", "descriptorpin", "pin.json"), home); got[0] != "~/.cursor/mcp.json" {
		t.Errorf("a config outside the pin's directory: %v", got)
	}
	if SourceNames("-", "pin.json", home) != nil {
		t.Error("standard input has a source")
	}
}

// A first-use pin of launch configs only says that no tool descriptors
// are pinned and how to turn that on.
func TestFirstUseSaysWhetherToolsArePinned(t *testing.T) {
	h := newHarness(t)
	h.cfg.Targets = []config.Target{{Path: h.path("client.json"), Kind: config.KindClientConfig}}
	h.write("client.json", `{"mcpServers": {"files": {"type": "http", "url": "https://files.example.test/mcp"}}}`)
	h.start()
	evs := h.next()
	if len(evs) < 2 || !strings.Contains(evs[1].Message, "no tool descriptors are pinned, only launch configs: keep discover: true, watch inventories or set capture.enabled") {
		t.Fatalf("events %v", evs)
	}
}

// Where tool descriptors come from is said plainly, for each way of
// getting them and for none.
func TestToolPinningSaysWhereToolsComeFrom(t *testing.T) {
	p := &pin.Pin{Tools: []*pin.Tool{{}, {}}}
	for _, tt := range []struct {
		cfg  config.Config
		p    *pin.Pin
		want string
	}{
		{config.Config{}, nil, "no tool descriptors are pinned, only launch configs"},
		{config.Config{Targets: []config.Target{{Kind: config.KindClientConfig}}}, nil, "no tool descriptors are pinned, only launch configs"},
		{config.Config{Discover: true}, nil, "no tool descriptors pinned yet; they come from the tool lists MCP clients keep"},
		{config.Config{Targets: []config.Target{{Kind: config.KindInventory}}}, p, "2 tool descriptors pinned; more come from the inventories it watches"},
		{config.Config{Capture: config.Capture{Enabled: true}}, nil, "the scheduled capture"},
	} {
		if got := ToolPinning(tt.cfg, tt.p); !strings.Contains(got, tt.want) {
			t.Errorf("ToolPinning = %q, want it to say %q", got, tt.want)
		}
	}
}
