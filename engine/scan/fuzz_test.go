package scan

import (
	"bytes"
	"errors"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

func FuzzParseInventory(f *testing.F) {
	f.Add([]byte(`{"servers":[{"name":"s","transport":"stdio","command":"npx","args":["-y","p@1"],"env":{"K":"v"},"tools":[{"name":"t","description":"d","inputSchema":{"type":"object"}}]}]}`))
	f.Add([]byte(`{"servers":[{"name":"a","tools":[{"name":"t","title":"x","annotations":{},"_meta":{}}]},{"name":"b","tools":[{"name":"t"}]}]}`))
	f.Add([]byte(`{"servers":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inv, err := inventory.Parse("f.json", data)
		if err != nil {
			var ie *engine.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		// Everything downstream must hold for any accepted inventory.
		pn, err := pin.Build(inv, pin.Format2, pin.Approval{By: "f", At: "2026-01-01T00:00:00Z"})
		if err != nil {
			t.Fatal(err)
		}
		data2 := pn.Marshal()
		back, err := pin.Load("p.json", data2)
		if err != nil {
			t.Fatalf("a fresh pin does not load: %v\n%s", err, data2)
		}
		if !bytes.Equal(back.Marshal(), data2) {
			t.Fatal("pin round trip differs")
		}
		for _, rs := range []detect.RuleSet{detect.RulesDefault, detect.RulesReference} {
			r := Scan(inv, back, ScanOptions{Rules: rs})
			for _, f := range r.Findings {
				if f.Class == engine.Mutation || f.Class == engine.Added || f.Class == engine.Removed {
					t.Fatalf("scan right after pin reports %s %s", f.Class, f.Subject)
				}
			}
		}
	})
}

func FuzzLoadPin(f *testing.F) {
	inv, _ := inventory.Parse("f.json", []byte(`{"servers":[{"name":"s","transport":"stdio","tools":[{"name":"t","description":"d"}]}]}`))
	for _, format := range []int{pin.Format1, pin.Format2} {
		p, _ := pin.Build(inv, format, pin.Approval{By: "f", At: "2026-01-01T00:00:00Z"})
		f.Add(p.Marshal())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := pin.Load("p.json", data)
		if err != nil {
			var ie *engine.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		out := p.Marshal()
		p2, err := pin.Load("p.json", out)
		if err != nil {
			t.Fatalf("re-marshalled pin does not load: %v", err)
		}
		if !bytes.Equal(p2.Marshal(), out) {
			t.Fatal("pin marshal is not stable")
		}
	})
}
