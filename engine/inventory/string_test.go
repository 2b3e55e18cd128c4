package inventory

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// parseBytes is Parse as it was before ParseString: the tree read with
// jsonv.ParseSplit from data, the lines indexed from data.
func parseBytes(file string, data []byte) (*engine.Inventory, error) {
	if len(data) > engine.MaxFileBytes {
		return nil, &engine.InputError{File: file, Msg: fmt.Sprintf("file is larger than the %d MiB cap", engine.MaxFileBytes>>20)}
	}
	root, err := jsonv.ParseSplit(data, "servers")
	if err != nil {
		return nil, engine.SyntaxError(file, err)
	}
	p := invParser{file: file, lines: jsonv.NewLines(data)}
	return p.inventory(&root)
}

// sameAsBytes fails unless ParseString and Parse both give what the
// byte parser gave for data: the same inventory (every value, offset,
// line and path) or the same error.
func sameAsBytes(t *testing.T, data []byte) {
	t.Helper()
	want, werr := parseBytes("f.json", data)
	for name, got := range map[string]func() (*engine.Inventory, error){
		"Parse":       func() (*engine.Inventory, error) { return Parse("f.json", data) },
		"ParseString": func() (*engine.Inventory, error) { return ParseString("f.json", string(data)) },
	} {
		inv, err := got()
		if !reflect.DeepEqual(err, werr) {
			t.Fatalf("%s: error %v, the byte parser's %v", name, err, werr)
		}
		if !reflect.DeepEqual(inv, want) {
			t.Fatalf("%s: the inventory differs from the byte parser's\n got %s\nwant %s", name, dump(inv), dump(want))
		}
	}
}

// TestParseStringIsParse: the string parser reads every refusal, the
// samples and generated inventories (small, and large enough to be
// split and read on every CPU; compact and indented, with a byte order
// mark, and cut short) as the byte parser did.
func TestParseStringIsParse(t *testing.T) {
	for _, tt := range refusals {
		sameAsBytes(t, []byte(tt.doc))
	}
	for _, f := range []string{"../../samples/inventory_clean.json", "../../samples/inventory_mutated.json"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sameAsBytes(t, data)
	}
	for _, indent := range []bool{false, true} {
		doc := benchDoc(t, 60, 40, 5, indent) // past jsonv's split size and parallelTools
		if len(doc) < 1<<20 {
			t.Fatalf("a %d-byte document is not split", len(doc))
		}
		sameAsBytes(t, doc)
		sameAsBytes(t, append([]byte("\xef\xbb\xbf"), doc...))
		sameAsBytes(t, doc[:len(doc)/2])
		s := string(doc)
		sameAsBytes(t, []byte(strings.Replace(s, `"name"`, `"name":1,"name"`, 1)))                        // a duplicate key early
		sameAsBytes(t, []byte(s[:strings.LastIndex(s, `"name"`)]+`"name":7}]}]}`))                        // a bad name late
		sameAsBytes(t, []byte(strings.Replace(s, `"description"`, "\"descr\n\niption\"", 2)))             // lines moved
		sameAsBytes(t, []byte(strings.Replace(s, `"tools":[`, `"tools":[{"name":"x"},{"name":"x"},`, 1))) // a tool twice
	}
	if _, err := ParseString("big.json", strings.Repeat(" ", engine.MaxFileBytes+1)); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("a document past the cap: %v", err)
	}
}

// FuzzParseString holds ParseString and Parse to the byte parser.
func FuzzParseString(f *testing.F) {
	for _, tt := range refusals {
		f.Add([]byte(tt.doc))
	}
	f.Add([]byte("{\"servers\":[{\"name\":\"a\",\n\"tools\":[{\"name\":\"t\",\"description\":\"x\\u00e9\"}]},\n{\"name\":\"b\",\"instructions\":\"i\",\"tools\":[{\"name\":\"t\",\"title\":\"y\"}]}]}"))
	f.Fuzz(func(t *testing.T, data []byte) { sameAsBytes(t, data) })
}
