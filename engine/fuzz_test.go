package engine

import (
	"bytes"
	"errors"
	"testing"
)

func FuzzParseInventory(f *testing.F) {
	f.Add([]byte(`{"servers":[{"name":"s","transport":"stdio","command":"npx","args":["-y","p@1"],"env":{"K":"v"},"tools":[{"name":"t","description":"d","inputSchema":{"type":"object"}}]}]}`))
	f.Add([]byte(`{"servers":[{"name":"a","tools":[{"name":"t","title":"x","annotations":{},"_meta":{}}]},{"name":"b","tools":[{"name":"t"}]}]}`))
	f.Add([]byte(`{"servers":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inv, err := ParseInventory("f.json", data)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		// Everything downstream must hold for any accepted inventory.
		pin, err := BuildPin(inv, Format2, Approval{By: "f", At: "2026-01-01T00:00:00Z"})
		if err != nil {
			t.Fatal(err)
		}
		data2 := pin.Marshal()
		back, err := LoadPin("p.json", data2)
		if err != nil {
			t.Fatalf("a fresh pin does not load: %v\n%s", err, data2)
		}
		if !bytes.Equal(back.Marshal(), data2) {
			t.Fatal("pin round trip differs")
		}
		for _, rs := range []RuleSet{RulesDefault, RulesReference} {
			r := Scan(inv, back, ScanOptions{Rules: rs})
			for _, f := range r.Findings {
				if f.Class == Mutation || f.Class == Added || f.Class == Removed {
					t.Fatalf("scan right after pin reports %s %s", f.Class, f.Subject)
				}
			}
		}
	})
}

func FuzzLoadPin(f *testing.F) {
	inv, _ := ParseInventory("f.json", []byte(`{"servers":[{"name":"s","transport":"stdio","tools":[{"name":"t","description":"d"}]}]}`))
	for _, format := range []int{Format1, Format2} {
		p, _ := BuildPin(inv, format, Approval{By: "f", At: "2026-01-01T00:00:00Z"})
		f.Add(p.Marshal())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := LoadPin("p.json", data)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		out := p.Marshal()
		p2, err := LoadPin("p.json", out)
		if err != nil {
			t.Fatalf("re-marshalled pin does not load: %v", err)
		}
		if !bytes.Equal(p2.Marshal(), out) {
			t.Fatal("pin marshal is not stable")
		}
	})
}
