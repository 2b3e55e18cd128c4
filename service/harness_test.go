package service

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/notify"
	"github.com/descriptorpin/descriptorpin/watcher"
)

// The service in-process: real files in a temporary directory, a fake
// watcher the test drives signal by signal, and a sink that records.

const invClean = `{"servers": [{"name": "files", "transport": "http", "url": "https://files.example.test/mcp", "tools": [
  {"name": "read_file", "description": "Read a file and return its text."},
  {"name": "list_dir", "description": "List a directory."}]}]}
`

var invChanged = strings.Replace(invClean, "Read a file and return its text.", "Read a file and return its text, then more.", 1)

// fakeWatcher hands the loop the signals the test sends. Its channels are
// unbuffered, so a send returns once the loop has taken the signal.
type fakeWatcher struct {
	sigs   chan watcher.Signal
	health chan watcher.Health
	mu     sync.Mutex
	paths  []string
	closed bool
}

func (w *fakeWatcher) Signals() <-chan watcher.Signal { return w.sigs }
func (w *fakeWatcher) Health() <-chan watcher.Health  { return w.health }
func (w *fakeWatcher) SetTargets(ts []string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.paths = append([]string(nil), ts...)
	return nil
}
func (w *fakeWatcher) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	return nil
}

// recorder is a sink that keeps every event.
type recorder struct {
	mu  sync.Mutex
	evs []engine.Event
}

func (r *recorder) Name() string { return "recorder" }
func (r *recorder) Send(ev engine.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = append(r.evs, ev)
}

func (r *recorder) events() []engine.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]engine.Event(nil), r.evs...)
}

// harness is one service under test.
type harness struct {
	t    *testing.T
	dir  string
	cfg  config.Config
	opt  Options
	rec  *recorder
	w    *fakeWatcher
	seen int // events already returned by next
	// d is the running service: read its fields only between signals
	// (signal returns once the loop is back at its select).
	d *Daemon

	cancel context.CancelFunc
	done   chan error
}

func newHarness(t *testing.T, targets ...string) *harness {
	t.Helper()
	return newHarnessIn(t, t.TempDir(), targets...)
}

// newHarnessIn is newHarness in dir.
func newHarnessIn(t *testing.T, dir string, targets ...string) *harness {
	t.Helper()
	cfg := config.Default()
	cfg.Pin = filepath.Join(dir, "pin.json")
	cfg.StateDir = filepath.Join(dir, "state")
	cfg.Discover = false
	cfg.RescanInterval = 0
	cfg.Capture.Enabled = false
	for _, tg := range targets {
		cfg.Targets = append(cfg.Targets, config.Target{Path: filepath.Join(dir, tg), Kind: config.KindInventory})
	}
	h := &harness{t: t, dir: dir, cfg: cfg, rec: &recorder{},
		w: &fakeWatcher{sigs: make(chan watcher.Signal), health: make(chan watcher.Health)}}
	h.opt = Options{
		Now:     func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		Home:    dir,
		User:    "tester",
		Host:    "testhost",
		Version: "test",
		Getenv:  func(string) string { return "" },
		Watch:   func([]string, watcher.Options) (Watcher, error) { return h.w, nil },
	}
	return h
}

func (h *harness) path(rel string) string { return filepath.Join(h.dir, rel) }

func (h *harness) write(rel, content string) {
	h.t.Helper()
	p := h.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// pinFrom writes a pin of an inventory, with edit applied to it first.
func (h *harness) pinFrom(content string, edit func(*pin.Pin)) {
	h.t.Helper()
	inv, err := inventory.Parse("inv.json", []byte(content))
	if err != nil {
		h.t.Fatal(err)
	}
	p, err := pin.Build(inv, pin.Format2, pin.Approval{By: "test", Note: "baseline", At: "2026-01-01T00:00:00Z"})
	if err != nil {
		h.t.Fatal(err)
	}
	p.Exclude = pin.DefaultExclude()
	if edit != nil {
		edit(p)
	}
	h.write("pin.json", string(p.Marshal()))
}

// start runs the service and its start-up rescan.
func (h *harness) start() {
	h.t.Helper()
	h.startSink(h.rec)
}

// startSink is start with the service emitting to sink.
func (h *harness) startSink(sink notify.Sink) {
	h.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel, h.done = cancel, make(chan error, 1)
	d := New(h.cfg, sink, h.opt)
	h.d = d
	go func() { h.done <- d.Run(ctx) }()
	h.t.Cleanup(func() {
		if h.cancel != nil {
			h.cancel()
			h.cancel = nil
			<-h.done
		}
	})
	h.signal(watcher.Signal{All: true, Reason: "start"})
}

// signal hands the loop one signal and returns once it is handled: the
// probe after it (a path nothing watches) is only taken when the loop is
// back at its select.
func (h *harness) signal(sig watcher.Signal) {
	h.t.Helper()
	for _, s := range []watcher.Signal{sig, {Path: h.path("no-such-target")}} {
		select {
		case h.w.sigs <- s:
		case err := <-h.done:
			h.t.Fatalf("the service stopped: %v", err)
		case <-time.After(10 * time.Second):
			h.t.Fatal("the service loop does not take signals")
		}
	}
}

func (h *harness) changed(rel string) { h.signal(watcher.Signal{Path: h.path(rel)}) }

// next returns the events since the last call.
func (h *harness) next() []engine.Event {
	evs := h.rec.events()
	out := evs[h.seen:]
	h.seen = len(evs)
	return out
}

func (h *harness) stop() error {
	h.t.Helper()
	h.cancel()
	h.cancel = nil
	select {
	case err := <-h.done:
		return err
	case <-time.After(10 * time.Second):
		h.t.Fatal("the service did not stop")
		return nil
	}
}

// summary is an event as "action CLASS" (or "action" for one without a
// finding), for comparing event lists.
func summary(evs []engine.Event) []string {
	var out []string
	for _, ev := range evs {
		s := ev.Action
		if ev.Finding != nil {
			s += " " + string(ev.Finding.Class)
		}
		out = append(out, s)
	}
	return out
}

func watchSignal(path string) watcher.Signal { return watcher.Signal{Path: path} }
