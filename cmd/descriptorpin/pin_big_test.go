package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// TestFiftyThousandToolPinRoundTrips: the binary pins a 50,000-tool
// inventory into a pin larger than the inventory cap (about 80 MB, under
// the pin cap), and scan reads that pin back: nothing but the inventory's
// static findings (issue 13: pin wrote pins scan could not read).
func TestFiftyThousandToolPinRoundTrips(t *testing.T) {
	if testing.Short() {
		t.Skip("writes an 80 MB pin")
	}
	skipUnderRace(t)
	dir := t.TempDir()
	data, err := invgen.Generate(invgen.Options{Servers: 1000, Tools: 50, Seed: 20260101})
	if err != nil {
		t.Fatal(err)
	}
	inv := filepath.Join(dir, "inv.json")
	if err := os.WriteFile(inv, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dp := func(args ...string) (string, int) {
		var out bytes.Buffer
		cmd := exec.Command(filepath.Join(binDir, "descriptorpin"), args...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &out
		cmd.Env = append(os.Environ(), "HOME="+dir)
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return out.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), 0
	}
	if out, code := dp("pin", "inv.json", "-o", "pin.json"); code != 0 || !strings.Contains(out, "pinned 50000 tools") {
		t.Fatalf("pin exited %d: %s", code, out)
	}
	st, err := os.Stat(filepath.Join(dir, "pin.json"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() <= engine.MaxFileBytes || st.Size() > pin.MaxBytes {
		t.Fatalf("pin is %d bytes: the test no longer crosses the inventory cap", st.Size())
	}
	out, code := dp("scan", "inv.json", "-p", "pin.json", "--fail-on", "medium")
	if code != 0 || strings.Contains(out, "MUTATION") || strings.Contains(out, "ADDED") || strings.Contains(out, "REMOVED") {
		t.Fatalf("scan of the pin's own inventory exited %d: %.2000s", code, out)
	}
	t.Logf("a 50,000-tool pin of a %d-byte inventory is %d bytes", len(data), st.Size())
}
