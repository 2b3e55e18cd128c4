package service

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/watcher"
)

// TestPinReload: every way the pin can change under the running service,
// and what the service says and re-evaluates.
func TestPinReload(t *testing.T) {
	for _, tc := range []struct {
		name string
		// inv is the target (invChanged when empty: read_file's MUTATION
		// is open before the edit) and opened the finding open at start.
		inv, opened string
		// edit changes the pin on disk, a pin of invClean.
		edit  func(h *harness)
		want  []string // events after the edit
		check func(t *testing.T, evs []engine.Event)
	}{{
		name: "edited to approve the change: announced, finding resolved",
		edit: func(h *harness) { h.pinFrom(invChanged, nil) },
		want: []string{"pin-changed", "finding-resolved MUTATION"},
	}, {
		name: "broken: reported and alerted, the last good pin kept",
		edit: func(h *harness) { h.write("pin.json", `{"format": "descriptorpin/pin/2", "tools": [`) },
		want: []string{"scan-failed", "finding-opened PIN"},
		check: func(t *testing.T, evs []engine.Event) {
			if !strings.Contains(evs[0].Message, "keeping the last good pin") {
				t.Errorf("message %q", evs[0].Message)
			}
		},
	}, {
		name: "deleted: reported and alerted once, the last good pin kept",
		edit: func(h *harness) {
			if err := os.Remove(h.path("pin.json")); err != nil {
				t.Fatal(err)
			}
		},
		want: []string{"scan-failed", "finding-opened PIN"},
	}, {
		name: "re-saved with the same bytes: nothing",
		edit: func(h *harness) { h.pinFrom(invClean, nil) },
		want: nil,
	}, {
		name: "reformatted: nothing to announce, nothing changes",
		edit: func(h *harness) {
			data, err := os.ReadFile(h.path("pin.json"))
			if err != nil {
				t.Fatal(err)
			}
			h.write("pin.json", strings.ReplaceAll(string(data), "\n", "\r\n"))
		},
		want: nil,
	}, {
		// The entries' diff is empty: only a server's header_keys differ.
		name:   "only header_keys approved: re-evaluated, finding resolved",
		inv:    strings.Replace(invClean, `"transport": "http",`, `"transport": "http", "header_keys": ["X-Api-Key"],`, 1),
		opened: "finding-opened LAUNCH",
		edit: func(h *harness) {
			h.pinFrom(invClean, func(p *pin.Pin) { p.Server("files").HeaderKeys = []string{"X-Api-Key"} })
		},
		want: []string{"pin-changed", "finding-resolved LAUNCH"},
	}, {
		name:   "only fields.exclude: re-evaluated, finding resolved",
		inv:    strings.Replace(invClean, `"description": "List a directory."`, `"description": "List a directory.", "x_vendor": {"rev": 2}`, 1),
		opened: "finding-opened MUTATION",
		edit: func(h *harness) {
			h.pinFrom(invClean, func(p *pin.Pin) { p.Exclude = append(p.Exclude, "x_vendor") })
		},
		want: []string{"pin-changed", "finding-resolved MUTATION"},
	}, {
		name: "only an approval note: announced and re-evaluated, the finding stays",
		edit: func(h *harness) {
			h.pinFrom(invClean, func(p *pin.Pin) { p.Servers[0].Approval.Note = "reviewed again" })
		},
		want: []string{"pin-changed"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.inv == "" {
				tc.inv, tc.opened = invChanged, "finding-opened MUTATION"
			}
			h := newHarness(t, "inv.json")
			h.write("inv.json", tc.inv)
			h.pinFrom(invClean, nil)
			h.start()
			if got := summary(h.next()); !slices.Contains(got, tc.opened) {
				t.Fatalf("at start: %v, want %s", got, tc.opened)
			}
			tc.edit(h)
			h.changed("pin.json")
			evs := h.next()
			if got := summary(evs); !slices.Equal(got, tc.want) {
				t.Fatalf("after the pin edit: %v, want %v", got, tc.want)
			}
			if tc.check != nil {
				tc.check(t, evs)
			}
			// The service goes on with what it has: a second signal for
			// the same pin says nothing more.
			h.changed("pin.json")
			if got := summary(h.next()); len(got) != 0 {
				t.Errorf("the same pin again: %v", got)
			}
			if err := h.stop(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestTargetAppearing: a target missing at start is a scan failure, and
// when it appears its tools are reported, never auto-pinned.
func TestTargetAppearing(t *testing.T) {
	h := newHarness(t, "inv.json", "later/new.json")
	h.write("inv.json", invClean)
	h.pinFrom(invClean, nil)
	h.start()
	if got := summary(h.next()); !slices.Equal(got, []string{"daemon-started", "scan-failed"}) {
		t.Fatalf("at start: %v", got)
	}
	h.write("later/new.json", strings.Replace(invClean, `"files"`, `"other"`, 1))
	h.changed("later/new.json")
	// The server and its two tools.
	if got := summary(h.next()); !slices.Equal(got, []string{"finding-opened ADDED", "finding-opened ADDED", "finding-opened ADDED"}) {
		t.Fatalf("after it appears: %v", got)
	}
}

// TestTrustOnFirstUse: no pin at the first start pins what is there now.
func TestTrustOnFirstUse(t *testing.T) {
	h := newHarness(t, "inv.json")
	h.write("inv.json", invClean)
	h.start()
	evs := h.next()
	if got := summary(evs); !slices.Equal(got, []string{"daemon-started", "pin-created"}) {
		t.Fatalf("at start: %v", got)
	}
	if !strings.Contains(evs[1].Pin.ApprovedBy[0], "trust-on-first-use") {
		t.Errorf("pin-created %+v", evs[1].Pin)
	}
	// Issue 17: counts read as English ("1 file", not "1 files").
	if !strings.Contains(evs[1].Message, "trusted the current state of 1 file (") {
		t.Errorf("pin-created message %q", evs[1].Message)
	}
	data, err := os.ReadFile(h.path("pin.json"))
	if err != nil || !strings.Contains(string(data), "trusted on first use by tester on testhost") {
		t.Fatalf("pin %s (%v)", data, err)
	}
	h.write("inv.json", invChanged)
	h.changed("inv.json")
	if got := summary(h.next()); !slices.Equal(got, []string{"finding-opened MUTATION"}) {
		t.Fatalf("after a change: %v", got)
	}
}

// TestWatcherFailureIsARuntimeError: a watcher that cannot start (inotify
// instances exhausted) fails Run with ErrRuntime, which the CLI exits 3
// for and a service manager restarts.
func TestWatcherFailureIsARuntimeError(t *testing.T) {
	h := newHarness(t, "inv.json")
	h.write("inv.json", invClean)
	h.pinFrom(invClean, nil)
	h.opt.Watch = func([]string, watcher.Options) (Watcher, error) {
		return nil, errors.New("too many open files")
	}
	err := New(h.cfg, h.rec, h.opt).Run(context.Background())
	if !errors.Is(err, ErrRuntime) || !strings.Contains(err.Error(), "starting the watcher: too many open files") {
		t.Fatalf("err = %v, want a runtime error", err)
	}
}
