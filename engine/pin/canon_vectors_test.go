package pin

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine/inventory"
)

// TestCanonVectors checks format-1 canonical text and hash against the
// original's vectors (testdata/reference/canon-vectors.json).
func TestCanonVectors(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/reference/canon-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Vectors []struct {
			Case      string `json:"case"`
			ToolJSON  string `json:"tool_json"`
			Canonical string `json:"canonical"`
			SHA256    string `json:"sha256"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Vectors) < 20 {
		t.Fatalf("only %d vectors", len(doc.Vectors))
	}
	for _, v := range doc.Vectors {
		t.Run(v.Case, func(t *testing.T) {
			inv, err := inventory.Parse("v.json", []byte(`{"servers":[{"name":"s","transport":"http","tools":[`+v.ToolJSON+`]}]}`))
			if err != nil {
				t.Fatal(err)
			}
			for _, format := range []int{Format1, Format2} {
				d := Describe(inv.Servers[0].Tools[0], format, DefaultExclude())
				if format == Format2 && v.Case == "extra-fields-dropped" {
					if d.Hash == v.SHA256 {
						t.Errorf("format 2 must cover title, annotations and outputSchema")
					}
					continue
				}
				if string(d.Canon) != v.Canonical {
					t.Errorf("format %d canonical\n got %s\nwant %s", format, d.Canon, v.Canonical)
				}
				if d.Hash != v.SHA256 {
					t.Errorf("format %d hash %s, want %s", format, d.Hash, v.SHA256)
				}
			}
		})
	}
}
