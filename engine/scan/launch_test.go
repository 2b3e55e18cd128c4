package scan

import (
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

func TestWritableConfigRule(t *testing.T) {
	inv := mustInv(t, `{"servers":[{"name":"s","transport":"http","url":"https://x.example.test/mcp","tools":[]}]}`)
	for mode, want := range map[uint32]bool{0o600: false, 0o644: false, 0o664: false, 0o666: true, 0o646: true} {
		r := Scan(inv, nil, ScanOptions{FileMode: fsMode(mode)})
		got := false
		for _, f := range r.Findings {
			got = got || f.Rule == "writable_config"
		}
		if got != want {
			t.Errorf("mode %o: writable_config fired %v", mode, got)
		}
	}
}

func TestLaunchChangesNameTheField(t *testing.T) {
	base := `{"servers":[{"name":"s","transport":"stdio","command":"npx","args":["-y","pkg@1.2.3"],"env":{"A":"1"},"tools":[]}]}`
	pn, err := pin.Build(mustInv(t, base), pin.Format2, pin.Approval{By: "a", At: "2026-01-01T00:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	if r := Scan(mustInv(t, base), pn, ScanOptions{Classes: []engine.Class{engine.Launch, engine.Added, engine.Removed}}); len(r.Findings) != 0 {
		t.Fatalf("pin then scan: %+v", r.Findings)
	}
	edits := map[string][2]string{
		"args":     {"pkg@1.2.3", "pkg"},
		"command":  {`"npx"`, `"bunx"`},
		"env keys": {`"A":"1"`, `"A":"1","B":"2"`},
	}
	for field, e := range edits {
		r := Scan(mustInv(t, strings.Replace(base, e[0], e[1], 1)), pn, ScanOptions{Classes: []engine.Class{engine.Launch}})
		if len(r.Findings) != 1 || len(r.Findings[0].Changes) != 1 || r.Findings[0].Changes[0].Field != field {
			t.Errorf("%s: got %+v", field, r.Findings)
		}
	}
	remote := `{"servers":[{"name":"r","transport":"http","url":"https://a.example.test/mcp","tools":[]}]}`
	rpin, _ := pin.Build(mustInv(t, remote), pin.Format2, pin.Approval{By: "a", At: "2026-01-01T00:00:00Z"})
	r := Scan(mustInv(t, strings.Replace(remote, "a.example", "b.example", 1)), rpin, ScanOptions{Classes: []engine.Class{engine.Launch}})
	if len(r.Findings) != 1 || r.Findings[0].Changes[0].Field != "url" || r.Findings[0].Changes[0].Scanned != "https://b.example.test/mcp" {
		t.Errorf("url: %+v", r.Findings)
	}
}

func TestInlineSecretNeverShown(t *testing.T) {
	const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	inv := mustInv(t, `{"servers":[{"name":"s","transport":"stdio","command":"node","args":["s.js","--token","`+secret+`"],"env":{"GITHUB_TOKEN":"`+secret+`"},"url":"","tools":[{"name":"t"}]}]}`)
	pn, _ := pin.Build(inv, pin.Format2, pin.Approval{By: "a", At: "2026-01-01T00:00:00Z"})
	if strings.Contains(string(pn.Marshal()), secret) {
		t.Fatal("secret in the pin")
	}
	r := Scan(inv, pn, ScanOptions{})
	found := false
	for _, f := range r.Findings {
		if f.Rule == "inline_secret" {
			found = true
			if !strings.Contains(f.Detail, "env GITHUB_TOKEN") || !strings.Contains(f.Detail, "args[2]") {
				t.Errorf("detail does not name the places: %s", f.Detail)
			}
		}
		if strings.Contains(f.Detail, secret) {
			t.Errorf("secret in a finding: %+v", f)
		}
	}
	if !found {
		t.Fatal("inline_secret did not fire")
	}
}
