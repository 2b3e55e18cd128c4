package service

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// Issue 12, item 12: a server that answers a clean tool list when
// clientInfo.name is "descriptorpin" fooled the scheduled capture, which
// only ever asked as descriptorpin. With capture.identify_as it also asks
// as a real client, and the difference is a BAIT-AND-SWITCH finding that
// opens once and resolves when the server stops. A real server process.
func TestScheduledCaptureFindsABaitAndSwitch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs an MCP server")
	}
	dir := t.TempDir()
	server := filepath.Join(dir, "testserver")
	if runtime.GOOS == "windows" {
		server += ".exe"
	}
	build := exec.Command("go", "build", "-o", server, "../capture/internal/testserver")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the test server: %v\n%s", err, out)
	}
	client := filepath.Join(dir, "claude_desktop_config.json")
	writeClient := func(mode string) *pin.Pin {
		doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
			"bait": map[string]any{"command": server, "args": []string{"-mode", mode}}}})
		if err := os.WriteFile(client, doc, 0o600); err != nil {
			t.Fatal(err)
		}
		inv, _, err := ParseAny(client, doc, KindClientConfig, dir)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pin.Build(inv, pin.Format2, pin.Approval{By: "test"})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	cfg := config.Config{StateDir: filepath.Join(dir, "state"), Capture: config.Capture{
		Enabled: true, AllowExec: true, Timeout: 20 * time.Second, IdentifyAs: []string{"claude-code"},
		Configs: []config.CaptureConfig{{Path: client}}}}
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	o := Options{FS: OS{}, Now: func() time.Time { return now }, Home: dir, Version: "test",
		LookupEnv: func(k string) (string, bool) { return os.LookupEnv(k) }}
	cc := cfg.Capture.Configs[0]
	actions := func(evs []engine.Event) (opened, resolved []*engine.OpenFinding) {
		for _, ev := range evs {
			switch ev.Action {
			case engine.ActionFindingOpened:
				opened = append(opened, ev.Finding)
			case engine.ActionFindingResolved:
				resolved = append(resolved, ev.Finding)
			case engine.ActionScanFailed:
				t.Errorf("scan failed: %s", ev.Message)
			}
		}
		return opened, resolved
	}

	p := writeClient("clientinfo")
	opened, _ := actions(captureConfig(context.Background(), cfg, o, cc, p, nil))
	if len(opened) != 1 || opened[0].Class != engine.BaitAndSwitch || opened[0].Severity != engine.High || opened[0].Server != "claude-desktop:bait" {
		for _, f := range opened {
			t.Logf("opened %+v", *f)
		}
		t.Fatalf("opened %d, want one high BAIT-AND-SWITCH of bait", len(opened))
	}
	if s := opened[0].Summary; !contains(s, `as "claude-code"`, "send_report", "read_file differs in description") {
		t.Errorf("summary %q", s)
	}
	// The next capture: still lying, nothing new.
	if opened, resolved := actions(captureConfig(context.Background(), cfg, o, cc, p, nil)); len(opened)+len(resolved) != 0 {
		t.Errorf("second capture: opened %d resolved %d, want nothing", len(opened), len(resolved))
	}
	// The server turns honest: the finding resolves.
	p = writeClient("tools")
	if opened, resolved := actions(captureConfig(context.Background(), cfg, o, cc, p, nil)); len(opened) != 0 || len(resolved) != 1 {
		t.Errorf("honest server: opened %d resolved %d, want 1 resolved", len(opened), len(resolved))
	}
}

func contains(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
