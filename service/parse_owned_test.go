package service

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
)

// ownedCases are files as the command line reads them: every client
// config of the client-config parser's tests under its own name, and
// inventories good, broken and named as another format reads them.
func ownedCases(t testing.TB) map[string][]byte {
	t.Helper()
	cases := map[string][]byte{}
	dir := "../engine/clientconfig/testdata"
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		cases[e.Name()] = data
	}
	big, err := invgen.Generate(invgen.Options{Servers: 60, Tools: 40, Seed: invgen.DefaultSeed, Mutate: 3})
	if err != nil {
		t.Fatal(err)
	}
	cases["big.json"] = big // past jsonv's split size: read on every CPU
	cases["big-cut.json"] = big[:len(big)/2]
	cases["big-dup.json"] = bytes.Replace(big, []byte(`"name"`), []byte(`"name":1,"name"`), 1)
	cases["inv.json"] = []byte(`{"servers":[{"name":"a","transport":"stdio","command":"x","tools":[{"name":"t","description":"d"}]}]}`)
	cases["config.toml"] = cases["inv.json"] // read as TOML by its name
	cases["bad-tool.json"] = []byte(`{"servers":[{"name":"a","tools":[{"name":1}]}]}`)
	cases["bom.json"] = append([]byte("\xef\xbb\xbf"), cases["inv.json"]...)
	cases["servers-object.json"] = []byte(`{"servers":{"a":{"command":"x"}}}`)
	cases["empty.json"] = nil
	return cases
}

// sameAsParse fails unless ParseOwned gives what Parse gives for the
// same file: the inventory, the kind and the error. Each gets a copy of
// data of its own (ParseOwned keeps its copy).
func sameAsParse(t *testing.T, path string, data []byte, kind string) {
	t.Helper()
	home := t.TempDir()
	want, wkind, werr := Parse(path, bytes.Clone(data), kind, home)
	got, gkind, gerr := ParseOwned(path, bytes.Clone(data), kind, home)
	if !reflect.DeepEqual(gerr, werr) || gkind != wkind {
		t.Fatalf("%s (%s): ParseOwned kind %q error %v; Parse kind %q error %v", path, kind, gkind, gerr, wkind, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s (%s): ParseOwned's inventory differs from Parse's", path, kind)
	}
}

// TestParseOwnedIsParse: for every file and every kind, what Parse
// returns.
func TestParseOwnedIsParse(t *testing.T) {
	for name, data := range ownedCases(t) {
		for _, kind := range []string{KindAuto, KindInventory, KindClientConfig} {
			sameAsParse(t, name, data, kind)
		}
	}
}

// TestParseOwnedReadsTheBuffer: an inventory's strings are slices of the
// buffer given, not of a copy of it (the 14 MB the command line saves).
func TestParseOwnedReadsTheBuffer(t *testing.T) {
	data := ownedCases(t)["big.json"]
	inv, kind, err := ParseOwned("big.json", data, KindAuto, t.TempDir())
	if err != nil || kind != KindInventory {
		t.Fatalf("kind %q, error %v", kind, err)
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	name := inv.Servers[len(inv.Servers)-1].Tools[0].Name
	if p := uintptr(unsafe.Pointer(unsafe.StringData(name))); p < lo || p >= lo+uintptr(len(data)) {
		t.Fatalf("tool name %q is not in the buffer read", name)
	}
}

// FuzzParseOwned holds ParseOwned to Parse, under each name (and so
// each format the name selects) and each kind.
func FuzzParseOwned(f *testing.F) {
	names := []string{"inv.json", "config.toml", "claude_desktop_config.json", "continue_config.yaml", "vscode_mcp.jsonc", "settings.json"}
	for name, data := range ownedCases(f) {
		if len(data) < 1<<16 {
			f.Add(uint8(0), uint8(0), data)
			f.Add(uint8(len(name)), uint8(1), data)
		}
	}
	f.Fuzz(func(t *testing.T, name, kind uint8, data []byte) {
		kinds := []string{KindAuto, KindInventory, KindClientConfig}
		sameAsParse(t, names[int(name)%len(names)], data, kinds[int(kind)%len(kinds)])
	})
}
