package capture

import (
	"encoding/json"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
)

// FuzzDecodePage: whatever a server sends as a tools/list result, decoding
// never panics, and what it accepts and validate passes is an inventory the
// engine reads with exactly those tools.
func FuzzDecodePage(f *testing.F) {
	for _, seed := range []string{
		`{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`,
		`{"tools":[{"name":"a"},{"name":"b","description":"x"}],"nextCursor":"c"}`,
		`{"tools":[],"nextCursor":null}`,
		`{"tools":[{"name":"a","description":"x","description":"y"}]}`,
		`{"Tools":[{"name":"hidden"}],"tools":[]}`,
		`{"tools":[{"name":"a","inputSchema":{"maximum":123456789012345678901234567890}}]}`,
		`{"tools":{}}`, `[]`, `{"tools":[1,"x",null]}`, "{\"tools\":[{\"name\":\"\xff\"}]}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		tools, next, err := decodePage(raw)
		if err != nil {
			return
		}
		_ = next
		for _, tool := range tools {
			if !json.Valid(tool) {
				t.Fatalf("accepted a tool that is not JSON: %q", tool)
			}
		}
		if validate("s", tools) != nil {
			return
		}
		doc, err := Document([]*Result{{Server: &engine.Server{Name: "s", Transport: "stdio", Command: "x"}, Tools: tools}})
		if err != nil {
			t.Fatalf("Document: %v", err)
		}
		inv, err := inventory.Parse("fuzz", doc)
		if err != nil {
			t.Fatalf("validated tools give an inventory the engine rejects: %v\n%s", err, doc)
		}
		if got := len(inv.Tools()); got != len(tools) {
			t.Fatalf("inventory has %d tools, captured %d", got, len(tools))
		}
	})
}
