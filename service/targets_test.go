package service

import (
	"slices"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/clientconfig"
	inv "github.com/descriptorpin/descriptorpin/engine/inventory"
)

// countParses counts the calls of both parsers until the test ends.
func countParses(t *testing.T) (inventory, clientConfig *int) {
	var ni, nc int
	pi, pc, rp, ru := parseInventory, parseClientConfig, reuserParse, reuserUpdate
	parseInventory = func(f string, d []byte) (*engine.Inventory, error) { ni++; return pi(f, d) }
	reuserParse = func(r *inv.Reuser, f string, d []byte) (*engine.Inventory, error) { ni++; return rp(r, f, d) }
	reuserUpdate = func(r *inv.Reuser, f string, d []byte) (*engine.Inventory, bool) {
		inv, ok := ru(r, f, d)
		if ok {
			ni++ // a parse, of the part that changed
		}
		return inv, ok
	}
	parseClientConfig = func(f string, d []byte, o clientconfig.Options) (*engine.Inventory, clientconfig.Format, error) {
		nc++
		return pc(f, d, o)
	}
	t.Cleanup(func() { parseInventory, parseClientConfig, reuserParse, reuserUpdate = pi, pc, rp, ru })
	return &ni, &nc
}

// TestAutoTargetIsParsedOnce: a kind: auto target that is an inventory is
// parsed as an inventory alone once the service knows it is one; a client
// config is parsed once as ever; a file that changes kind is still read
// right.
func TestAutoTargetIsParsedOnce(t *testing.T) {
	h := newHarness(t)
	h.cfg.Targets = []config.Target{{Path: h.path("inv.json"), Kind: config.KindAuto}}
	h.write("inv.json", invClean)
	h.pinFrom(invClean, nil)
	ni, nc := countParses(t)
	h.start()
	h.next()
	for i, content := range []string{invChanged, invClean} {
		*ni, *nc = 0, 0
		h.write("inv.json", content)
		h.changed("inv.json")
		if *ni != 1 || *nc != 0 {
			t.Errorf("scan %d: %d inventory and %d client config parses, want 1 and 0", i, *ni, *nc)
		}
	}
	if got := summary(h.next()); !slices.Equal(got, []string{"finding-opened MUTATION", "finding-resolved MUTATION"}) {
		t.Errorf("events %v", got)
	}
	// Now a client config: read as one (its server's launch line is not
	// the pinned one), not as a broken inventory.
	h.write("inv.json", `{"mcpServers": {"files": {"url": "https://files.example.test/mcp"}}}`)
	h.changed("inv.json")
	evs := h.next()
	if len(evs) == 0 || strings.Contains(strings.Join(summary(evs), ","), "scan-failed") {
		t.Errorf("after the switch to a client config: %v", summary(evs))
	}
	*ni, *nc = 0, 0
	h.write("inv.json", `{"mcpServers": {"files": {"url": "https://files.example.test/mcp/v2"}}}`)
	h.changed("inv.json")
	if *ni != 0 || *nc != 1 {
		t.Errorf("client config: %d inventory and %d client config parses, want 0 and 1", *ni, *nc)
	}
}
