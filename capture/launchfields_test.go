package capture

import (
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/scan"
)

// A captured inventory carries the server's launch fields (redacted), so
// scanning it against a pin made from the client config reports no LAUNCH
// for fields it would otherwise lack.
func TestInventoryKeepsLaunchFields(t *testing.T) {
	key := launch.Key("0123456789abcdef0123456789abcdef")
	s := &engine.Server{Name: "gemini-cli:py", Transport: "stdio", Command: "python3", Args: []string{"-m", "srv"},
		Env: map[string]string{"PYTHONPATH": "/good"}, EnvKeys: []string{"PYTHONPATH"},
		Extra: map[string]string{"trust": "true", "cwd": "/srv", "headersHelper": "get-headers --secret Zx81kQ2mP9vL3sT7wY4bN6cR0dF5gH1j"}}
	cfg := &engine.Inventory{File: "settings.json", Servers: []*engine.Server{s}}
	pn, err := pin.BuildWith(cfg, pin.Format2, pin.Approval{By: "a", At: "2026-01-01T00:00:00Z"}, pin.Options{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Document([]*Result{{Server: s}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(doc), "Zx81kQ2mP9vL3sT7wY4bN6cR0dF5gH1j") || !strings.Contains(string(doc), `"trust": "true"`) {
		t.Fatalf("inventory:\n%s", doc)
	}
	inv, err := inventory.Parse("inv.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	r := scan.Scan(inv, pn, scan.ScanOptions{Key: key, Classes: []engine.Class{engine.Launch}})
	if len(r.Findings) != 0 || len(r.Notes) != 0 {
		t.Fatalf("scan of the inventory: %+v %v", r.Findings, r.Notes)
	}
}
