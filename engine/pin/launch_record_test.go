package pin

import (
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/launch"
)

var recKey = launch.Key("0123456789abcdef0123456789abcdef")

func recInv() *engine.Inventory {
	return &engine.Inventory{File: "mcp.json", Servers: []*engine.Server{{
		Name: "py", Transport: "stdio", Command: "python3", Args: []string{"-m", "srv", "--token", "tok-1"},
		Env: map[string]string{"PYTHONPATH": "/good"}, EnvKeys: []string{"PYTHONPATH"},
		Extra: map[string]string{"cwd": "/srv", "trust": "true"},
	}}}
}

// The server launch record keeps launch fields, the key id and value
// digests through Marshal and Load, and never a value.
func TestLaunchRecordRoundTrips(t *testing.T) {
	p, err := BuildWith(recInv(), Format2, Approval{By: "a", At: "2026-01-01T00:00:00Z"}, Options{Key: recKey})
	if err != nil {
		t.Fatal(err)
	}
	doc := p.Marshal()
	for _, v := range []string{"/good", "tok-1"} {
		if strings.Contains(string(doc), v) {
			t.Errorf("pin holds %q", v)
		}
	}
	q, err := Load("pin.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	s := q.Server("py")
	if s.KeyID != recKey.ID() || len(s.Values) != 2 || s.Extra["cwd"] != "/srv" || s.Extra["trust"] != "true" {
		t.Fatalf("loaded %+v", s)
	}
	if string(q.Marshal()) != string(doc) {
		t.Error("Marshal(Load(pin)) differs")
	}
	if !launch.MatchesApproved(s.Approved(), recInv().Servers[0], recKey) {
		t.Error("the loaded record does not match the launch it was made from")
	}
}

func TestLaunchRecordIsChecked(t *testing.T) {
	p, _ := BuildWith(recInv(), Format2, Approval{By: "a", At: "2026-01-01T00:00:00Z"}, Options{Key: recKey})
	doc := string(p.Marshal())
	for name, edit := range map[string][2]string{
		"short digest":      {`": "` + p.Servers[0].Values["env PYTHONPATH"], `": "abc`},
		"bad key id":        {`"key_id": "` + recKey.ID(), `"key_id": "zz`},
		"unknown field":     {`"cwd": "/srv"`, `"workdir": "/srv"`},
		"digests no key id": {`"key_id": "` + recKey.ID() + `",`, ``},
	} {
		bad := strings.Replace(doc, edit[0], edit[1], 1)
		if bad == doc {
			t.Fatalf("%s: edit does not apply", name)
		}
		if _, err := Load("pin.json", []byte(bad)); err == nil {
			t.Errorf("%s: loads", name)
		}
	}
}

// approve --all re-approves a server whose hidden value changed, and the
// pin change names it.
func TestApproveAllSeesAValueChange(t *testing.T) {
	p, _ := BuildWith(recInv(), Format2, Approval{By: "a", At: "2026-01-01T00:00:00Z"}, Options{Key: recKey})
	old, _ := Load("pin.json", p.Marshal())
	inv := recInv()
	inv.Servers[0].Env["PYTHONPATH"] = "/evil"
	done, err := ApproveWith(p, inv, nil, true, true, Approval{By: "b", Note: "moved", At: "2026-01-02T00:00:00Z"}, Options{Key: recKey})
	if err != nil || strings.Join(done, ",") != "approved server py" {
		t.Fatalf("approve: %v %v", done, err)
	}
	if c := Diff(old, p); strings.Join(c.Reapproved, ",") != "server:py" {
		t.Fatalf("diff %+v", c)
	}
	if done, _ := ApproveWith(p, inv, nil, true, true, Approval{By: "b", Note: "again", At: "2026-01-03T00:00:00Z"}, Options{Key: recKey}); len(done) != 0 {
		t.Fatalf("nothing changed, yet %v", done)
	}
}
