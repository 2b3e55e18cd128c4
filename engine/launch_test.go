package engine

import (
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine/redact"
)

func TestLaunchRuleExamples(t *testing.T) {
	for _, r := range LaunchRules {
		for _, s := range r.Examples {
			if r.Check(s, 0) == "" {
				t.Errorf("%s does not fire on its example %s %v %s", r.Name, s.Command, s.Args, s.URL)
			}
		}
		for _, s := range r.Counter {
			if d := r.Check(s, 0); d != "" {
				t.Errorf("%s fires on its counter example %s %v %s: %s", r.Name, s.Command, s.Args, s.URL, d)
			}
		}
	}
}

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

func TestSecretDetection(t *testing.T) {
	secrets := []string{"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "sk-proj-abcdefghijklmnopqrstuv", "AKIAIOSFODNN7EXAMPLE",
		"Bearer abcdefgh12345678", "xoxb-1234567890-abcdefghij", "Zx81kQ2mP9vL3sT7wY4bN6cR0dF5gH1j"}
	for _, s := range secrets {
		if !redact.LooksSecret(s) {
			t.Errorf("%q should look secret", s)
		}
	}
	plain := []string{"${env:GITHUB_TOKEN}", "${input:api-key}", "$TOKEN", "%TOKEN%", "Bearer ${env:TOKEN}", "debug",
		"/home/user/projects/my-mcp-server/dist/index.js", "@modelcontextprotocol/server-filesystem", "https://example.test/path"}
	for _, s := range plain {
		if redact.LooksSecret(s) {
			t.Errorf("%q should not look secret", s)
		}
	}
	if got := redact.Args([]string{"--token", "abc123", "--api-key=xyz", "--name", "files", "--token", "${env:T}"}); strings.Join(got, " ") != "--token REDACTED --api-key=REDACTED --name files --token ${env:T}" {
		t.Errorf("RedactArgs: %v", got)
	}
	if got := redact.URL("https://user:pw@mcp.example.test/x?token=abc&mode=fast#frag"); got != "https://REDACTED@mcp.example.test/x?mode=REDACTED&token=REDACTED" {
		t.Errorf("RedactURL: %s", got)
	}
}

func TestLaunchChangesNameTheField(t *testing.T) {
	base := `{"servers":[{"name":"s","transport":"stdio","command":"npx","args":["-y","pkg@1.2.3"],"env":{"A":"1"},"tools":[]}]}`
	pin, err := BuildPin(mustInv(t, base), Format2, Approval{By: "a", At: "2026-01-01T00:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	if r := Scan(mustInv(t, base), pin, ScanOptions{Classes: []Class{Launch, Added, Removed}}); len(r.Findings) != 0 {
		t.Fatalf("pin then scan: %+v", r.Findings)
	}
	edits := map[string][2]string{
		"args":     {"pkg@1.2.3", "pkg"},
		"command":  {`"npx"`, `"bunx"`},
		"env keys": {`"A":"1"`, `"A":"1","B":"2"`},
	}
	for field, e := range edits {
		r := Scan(mustInv(t, strings.Replace(base, e[0], e[1], 1)), pin, ScanOptions{Classes: []Class{Launch}})
		if len(r.Findings) != 1 || len(r.Findings[0].Changes) != 1 || r.Findings[0].Changes[0].Field != field {
			t.Errorf("%s: got %+v", field, r.Findings)
		}
	}
	remote := `{"servers":[{"name":"r","transport":"http","url":"https://a.example.test/mcp","tools":[]}]}`
	rpin, _ := BuildPin(mustInv(t, remote), Format2, Approval{By: "a", At: "2026-01-01T00:00:00Z"})
	r := Scan(mustInv(t, strings.Replace(remote, "a.example", "b.example", 1)), rpin, ScanOptions{Classes: []Class{Launch}})
	if len(r.Findings) != 1 || r.Findings[0].Changes[0].Field != "url" || r.Findings[0].Changes[0].Scanned != "https://b.example.test/mcp" {
		t.Errorf("url: %+v", r.Findings)
	}
}

func TestInlineSecretNeverShown(t *testing.T) {
	const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	inv := mustInv(t, `{"servers":[{"name":"s","transport":"stdio","command":"node","args":["s.js","--token","`+secret+`"],"env":{"GITHUB_TOKEN":"`+secret+`"},"url":"","tools":[{"name":"t"}]}]}`)
	pin, _ := BuildPin(inv, Format2, Approval{By: "a", At: "2026-01-01T00:00:00Z"})
	if strings.Contains(string(pin.Marshal()), secret) {
		t.Fatal("secret in the pin")
	}
	r := Scan(inv, pin, ScanOptions{})
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
