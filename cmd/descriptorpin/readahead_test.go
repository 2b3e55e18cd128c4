package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestInventoryReadBesideThePin: scan, diff and shadow read a named
// inventory while the pin loads (readAhead), and give what reading them
// one after the other gives, which is what an inventory on standard input
// still gets: the same report and exit code, the pin's error first when
// both are bad, the inventory's own error when only it is. The collector
// is on again after every run.
func TestInventoryReadBesideThePin(t *testing.T) {
	dir := t.TempDir()
	file := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	read := func(p string) string {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	pin := read("../../samples/pin.json")
	clean := read("../../samples/inventory_clean.json")
	pins := []string{
		file("pin.json", pin),
		file("tampered.json", strings.Replace(pin, "directory path", "directory  path", 1)),
		file("cut.json", pin[:len(pin)/2]),
		filepath.Join(dir, "no-pin.json"),
	}
	invs := map[string]string{
		"clean.json":   clean,
		"mutated.json": read("../../samples/inventory_mutated.json"),
		"mcp.json":     `{"mcpServers":{"files":{"command":"npx","args":["-y","srv"]}}}`,
		"bad.json":     clean[:len(clean)/3],
	}
	check := func(what string, code int, out, errs string, want [3]string) {
		t.Helper()
		if got := [3]string{string(rune('0' + code)), out, errs}; got != want {
			t.Fatalf("%s: exit %s\nstdout:\n%s\nstderr:\n%s\nwant exit %s\nstdout:\n%s\nstderr:\n%s", what, got[0], got[1], got[2], want[0], want[1], want[2])
		}
		if was := debug.SetGCPercent(100); was != 100 {
			t.Fatalf("%s: the collector is left at GOGC %d", what, was)
		}
	}
	for _, cmd := range []string{"scan", "diff", "shadow"} {
		for _, p := range pins {
			args := func(inv string) []string {
				if cmd == "shadow" {
					return []string{cmd, inv}
				}
				return []string{cmd, inv, "-p", p}
			}
			// What a pin alone gives, for the inventory that is missing.
			_, _, pinErr := runHere(t, clean, args("-")...)
			for name, data := range invs {
				inv := file(name, data)
				code, out, errs := runHere(t, data, args("-")...)
				if name == "bad.json" {
					// Standard input's name is in the syntax error: the
					// file's own error is what `pin` reports for it.
					_, _, invErr := runHere(t, "", "pin", inv, "-o", filepath.Join(dir, "out.json"))
					if cmd == "shadow" || !strings.Contains(pinErr, "error") {
						errs = invErr
					}
				}
				c2, o2, e2 := runHere(t, "", args(inv)...)
				check(cmd+" "+name+" "+filepath.Base(p), c2, o2, e2, [3]string{string(rune('0' + code)), out, errs})
			}
			code, _, errs := runHere(t, "", args(filepath.Join(dir, "missing.json"))...)
			if cmd != "shadow" && strings.Contains(pinErr, "error") {
				check(cmd+" missing "+filepath.Base(p), code, "", errs, [3]string{"2", "", pinErr})
			} else if code != 2 || !strings.Contains(errs, `cannot read inventory "`) {
				t.Fatalf("%s of a missing inventory with %s: exit %d, %s", cmd, filepath.Base(p), code, errs)
			}
		}
	}
}
