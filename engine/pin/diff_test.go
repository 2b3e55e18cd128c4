package pin

import (
	"testing"

	"github.com/descriptorpin/descriptorpin/engine/inventory"
)

func diffPin(t *testing.T) *Pin {
	t.Helper()
	inv, err := inventory.Parse("inv.json", []byte(`{"servers":[{"name":"s","transport":"http","url":"https://mcp.example.test/mcp","header_keys":["Authorization"],"tools":[{"name":"t","description":"Adds numbers."}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(inv, Format2, Approval{By: "a", Note: "first review", At: "2026-01-01T00:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	p.Acceptances = []*Acceptance{{ID: "0123456789abcdef", Class: "TRANSPORT", Subject: "s", Hash: "ab", Approval: Approval{By: "a", Note: "ok", At: "2026-01-01T00:00:00Z"}}}
	return p
}

// Every field the pin records is compared: a change to any one of them
// alone gives a non-empty diff naming the entry, and the same pin gives
// an empty one.
func TestDiffSeesEveryField(t *testing.T) {
	tests := []struct {
		name   string
		change func(p *Pin)
		want   string // the Reapproved entry
	}{
		{"only a server's header_keys", func(p *Pin) { p.Servers[0].HeaderKeys = []string{"Authorization", "X-Api-Key"} }, "server:s"},
		{"only fields.exclude", func(p *Pin) { p.Exclude = []string{"_meta", "annotations"} }, SettingExclude},
		{"only a tool's approval note", func(p *Pin) { p.Tools[0].Note = "second review" }, "s/t"},
		{"only a server's approval note", func(p *Pin) { p.Servers[0].Note = "second review" }, "server:s"},
		{"only an acceptance's approval note", func(p *Pin) { p.Acceptances[0].Note = "still ok" }, "0123456789abcdef"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			old, cur := diffPin(t), diffPin(t)
			tc.change(cur)
			c := Diff(old, cur)
			if Empty(c) {
				t.Fatalf("empty diff for a change to %s", tc.name)
			}
			if len(c.Reapproved) != 1 || c.Reapproved[0] != tc.want {
				t.Fatalf("Reapproved = %q, want [%q] (%+v)", c.Reapproved, tc.want, c)
			}
			if !Empty(Diff(old, diffPin(t))) {
				t.Fatal("the same pin gives a non-empty diff")
			}
		})
	}
}

// An acceptance tied to a new hash is the old one withdrawn and a new one
// given, as before.
func TestDiffAcceptanceHashIsUnacceptedAndAccepted(t *testing.T) {
	old, cur := diffPin(t), diffPin(t)
	cur.Acceptances[0].Hash = "cd"
	c := Diff(old, cur)
	if len(c.Accepted) != 1 || len(c.Unaccepted) != 1 || len(c.Reapproved) != 0 {
		t.Fatalf("%+v", c)
	}
}

// Marshal writes a sorted document without reordering the pin it writes,
// and DefaultExclude is never shared between pins.
func TestMarshalLeavesThePinAlone(t *testing.T) {
	p := diffPin(t)
	p.Tools = append(p.Tools, newTool("a/b", "a", "b", p.Tools[0].Hash, *p.Tools[0].Descriptor(), Approval{}))
	before := p.Tools[1]
	_ = p.Marshal()
	if p.Tools[1] != before {
		t.Fatal("Marshal reordered the pin")
	}
	q := diffPin(t)
	p.Exclude[0] = "changed"
	if q.Exclude[0] != "_meta" || DefaultExclude()[0] != "_meta" {
		t.Fatal("DefaultExclude is shared between pins")
	}
}
