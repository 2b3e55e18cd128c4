package service

import (
	"context"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// TestShutdownWaitsForTheCapture: a scheduled capture still running when
// the service is stopped is awaited: Run returns after it, and
// daemon-stopped is the last event.
func TestShutdownWaitsForTheCapture(t *testing.T) {
	h := newHarness(t, "inv.json")
	h.write("inv.json", invClean)
	h.pinFrom(invClean, nil)
	h.cfg.Capture = config.Capture{Enabled: true, Interval: time.Hour, Timeout: time.Second,
		Configs: []config.CaptureConfig{{Path: h.path("client.json"), Output: filepath.Join(h.dir, "captured.json")}}}
	started, release := make(chan struct{}), make(chan struct{})
	var finished atomic.Bool
	h.opt.Capture = func(ctx context.Context, cc config.CaptureConfig, pin *pin.Pin) []engine.Event {
		close(started)
		<-ctx.Done()
		<-release // still writing its inventory, say
		finished.Store(true)
		return nil
	}
	h.start()
	<-started
	h.cancel()
	h.cancel = nil
	select {
	case err := <-h.done:
		t.Fatalf("Run returned (%v) while a capture was running", err)
	case <-time.After(50 * time.Millisecond): // a debounce's worth
	}
	close(release)
	if err := <-h.done; err != nil {
		t.Fatal(err)
	}
	if !finished.Load() {
		t.Fatal("Run returned before the capture")
	}
	if got := summary(h.next()); got[len(got)-1] != "daemon-stopped" || slices.Contains(got[:len(got)-1], "daemon-stopped") {
		t.Errorf("events %v: daemon-stopped is not last", got)
	}
}
