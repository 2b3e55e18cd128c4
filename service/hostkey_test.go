package service

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/engine/monitor"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/internal/hostkey"
)

// An inventory whose server hides a value (an env value) behind redaction.
const invWithEnv = `{"servers": [{"name": "files", "transport": "stdio", "command": "files-mcp", "env": {"API_TOKEN": "tok-one-1234567890"},
  "tools": [{"name": "read_file", "description": "Read a file and return its text."}]}]}
`

// Issue 12: trust on first use pins with the per-host key of the config's
// state directory (created on first use), so the pin records the hidden
// values' digests and a later scan compares them: a changed token is a
// LAUNCH finding, not a note that values were not compared.
func TestServiceUsesTheHostKey(t *testing.T) {
	h := newHarness(t, "inv.json")
	h.write("inv.json", invWithEnv)
	h.start()
	if got := summary(h.next()); !slices.Contains(got, "pin-created") {
		t.Fatalf("at start: %v", got)
	}
	key, err := hostkey.Load(hostkey.Path(h.cfg.StateDir))
	if err != nil {
		t.Fatalf("no host key in the state directory: %v", err)
	}
	data, err := os.ReadFile(h.cfg.Pin)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pin.Load(h.cfg.Pin, data)
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Server("files"); s == nil || s.KeyID != key.ID() || len(s.Values) == 0 {
		t.Fatalf("the TOFU pin records no value digests under the host key: %s", data)
	}
	h.write("inv.json", strings.Replace(invWithEnv, "tok-one", "tok-two", 1))
	h.changed("inv.json")
	if got := summary(h.next()); !slices.Equal(got, []string{"finding-opened LAUNCH"}) {
		t.Fatalf("after the token changed: %v", got)
	}
	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	st := readStateFile(t, h)
	if f := st.Files[h.path("inv.json")]; f == nil || len(f.Notes) != 0 {
		t.Errorf("notes %v, want none (the values were compared)", f)
	}
}

// Issue 12: what a scan could not check (scan.Report.Notes) is in the
// file's state, so status shows it: here a pin made on another host.
func TestScanNotesAreInTheFilesState(t *testing.T) {
	h := newHarness(t, "inv.json")
	h.write("inv.json", invWithEnv)
	h.pinFrom(invWithEnv, nil)
	other := launch.Key("another-host-key-0123456789abcdef")
	inv := mustInv(t, invWithEnv)
	p, err := pin.BuildWith(inv, pin.Format2, pin.Approval{By: "test", At: "2026-01-01T00:00:00Z"}, pin.Options{Key: other})
	if err != nil {
		t.Fatal(err)
	}
	h.write("pin.json", string(p.Marshal()))
	h.start()
	h.next()
	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	f := readStateFile(t, h).Files[h.path("inv.json")]
	if f == nil || len(f.Notes) != 1 || !strings.Contains(f.Notes[0], launch.NoteOtherHost) {
		t.Fatalf("notes %+v, want the other-host note", f)
	}
	v := monitor.Status("state.json", readStateFile(t, h))
	if i := slices.IndexFunc(v.Targets, func(tv monitor.TargetView) bool { return tv.Path == h.path("inv.json") }); i < 0 || len(v.Targets[i].Notes) != 1 {
		t.Errorf("status targets %+v, want the note", v.Targets)
	}
}

// Issue 12: a pin-changed event says when the new pin excludes more than
// the default (pin.ExcludeWarning).
func TestPinChangedCarriesTheExcludeWarning(t *testing.T) {
	h := newHarness(t, "inv.json")
	h.write("inv.json", invClean)
	h.pinFrom(invClean, nil)
	h.start()
	h.next()
	h.pinFrom(invClean, func(p *pin.Pin) { p.Exclude = append(p.Exclude, "annotations") })
	h.changed("pin.json")
	var ev *engine.Event
	for _, e := range h.next() {
		if e.Action == engine.ActionPinChanged {
			ev = &e
		}
	}
	if ev == nil || ev.Pin == nil || !strings.Contains(ev.Pin.ExcludeWarning, "annotations") || !strings.Contains(ev.Message, "warning: ") {
		t.Fatalf("pin-changed %+v, want the exclude warning", ev)
	}
}

// Issue 12: the scheduled capture starts a stdio server only when its
// launch, values included, is the approved one under the host key: a
// changed env value (same key names) is not started.
func TestScheduledCaptureComparesLaunchValues(t *testing.T) {
	dir := t.TempDir()
	client := filepath.Join(dir, "claude_desktop_config.json")
	doc := func(token string) []byte {
		b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
			"files": map[string]any{"command": filepath.Join(dir, "no-such-server"), "env": map[string]string{"API_TOKEN": token}}}})
		return b
	}
	key := launch.Key("0123456789abcdef0123456789abcdef")
	inv, _, err := ParseAny(client, doc("tok-one-1234567890"), KindClientConfig, dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pin.BuildWith(inv, pin.Format2, pin.Approval{By: "test"}, pin.Options{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(client, doc("tok-two-1234567890"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := config.Config{StateDir: filepath.Join(dir, "state"), Capture: config.Capture{
		Enabled: true, AllowExec: true, Timeout: 5 * time.Second, Configs: []config.CaptureConfig{{Path: client}}}}
	o := Options{FS: OS{}, Now: time.Now, Home: dir, Version: "test", LookupEnv: os.LookupEnv}
	evs := captureConfig(context.Background(), cfg, o, cfg.Capture.Configs[0], p, key)
	if len(evs) != 1 || !strings.Contains(evs[0].Message, "not started: claude-desktop:files (its launch config, values included, is not the approved one)") {
		t.Fatalf("events %+v, want files not started", evs)
	}
}

func readStateFile(t *testing.T, h *harness) *monitor.State {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(h.cfg.StateDir, StateFile))
	if err != nil {
		t.Fatal(err)
	}
	st := monitor.NewState()
	if err := json.Unmarshal(data, st); err != nil {
		t.Fatal(err)
	}
	return st
}

func mustInv(t *testing.T, doc string) *engine.Inventory {
	t.Helper()
	inv, err := inventory.Parse("inv.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return inv
}
