package scan

import (
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/clientconfig"
	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

var (
	hostKey  = launch.Key("0123456789abcdef0123456789abcdef")
	otherKey = launch.Key("fedcba9876543210fedcba9876543210")
)

func mustConfig(t *testing.T, data string) *engine.Inventory {
	t.Helper()
	inv, _, err := clientconfig.ParseWith("mcp.json", []byte(data), clientconfig.Options{Format: clientconfig.FormatJSON})
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

const launchBase = `{"mcpServers": {
  "py": {"command": "python3", "args": ["-m", "srv", "--token", "tok-111111"], "env": {"PYTHONPATH": "/good", "API_KEY": "k-aaaa"}},
  "uv": {"command": "uvx", "args": ["acme-mcp-server-k8s2==1.0.0"]},
  "oidc": {"command": "node", "args": ["o.js", "--oauth-issuer", "https://login.acme.test/t?client=c-1"]},
  "web": {"url": "https://mcp.example.test/mcp?tenant=acme-prod#frag1", "headers": {"X-Tenant": "acme", "Authorization": "Bearer t-1"},
          "headersHelper": "get-headers --secret Zx81kQ2mP9vL3sT7wY4bN6cR0dF5gH1j"}
}}`

// What redaction hides is compared by keyed digest: each change is a
// LAUNCH naming the field, and no value reaches the pin or the finding.
func TestLaunchValueChangesAreLaunchFindings(t *testing.T) {
	pn, err := pin.BuildWith(mustConfig(t, launchBase), pin.Format2, pin.Approval{By: "a", At: "2026-01-01T00:00:00Z"}, pin.Options{Key: hostKey})
	if err != nil {
		t.Fatal(err)
	}
	doc := string(pn.Marshal())
	for _, v := range []string{"/good", "k-aaaa", "tok-111111", "acme-prod", "frag1", "t-1", "Zx81kQ2mP9vL3sT7wY4bN6cR0dF5gH1j", "acme-mcp-server-k8s2"} {
		if strings.Contains(doc, v) {
			t.Errorf("the pin holds the value %q", v)
		}
	}
	opt := ScanOptions{Key: hostKey, Classes: []engine.Class{engine.Launch}}
	if r := Scan(mustConfig(t, launchBase), pn, opt); len(r.Findings)+len(r.Notes) != 0 {
		t.Fatalf("pin then scan: %+v %v", r.Findings, r.Notes)
	}
	edits := []struct{ from, to, server, field string }{
		{`"/good"`, `"/evil"`, "py", "env PYTHONPATH"},
		{`"k-aaaa"`, `"k-bbbb"`, "py", "env API_KEY"},
		{`"tok-111111"`, `"tok-222222"`, "py", "args[3]"},
		{`k8s2==1.0.0`, `k8s3==1.0.0`, "uv", "args[0]"},
		{`login.acme.test`, `login.evil.test`, "oidc", "args"},
		{`client=c-1`, `client=c-2`, "oidc", "args[2]"},
		{`tenant=acme-prod`, `tenant=attacker`, "web", "url query tenant"},
		{`#frag1`, `#frag2`, "web", "url fragment"},
		{`"X-Tenant": "acme"`, `"X-Tenant": "evil"`, "web", "header X-Tenant"},
		{`"Bearer t-1"`, `"Bearer t-2"`, "web", "header Authorization"},
		{`cR0dF5gH1j"`, `cR0dF5gH1k"`, "web", "headersHelper"},
	}
	for _, e := range edits {
		edited := strings.Replace(launchBase, e.from, e.to, 1)
		if edited == launchBase {
			t.Fatalf("edit %q does not apply", e.from)
		}
		r := Scan(mustConfig(t, edited), pn, opt)
		if len(r.Findings) != 1 || r.Findings[0].Server != e.server || len(r.Findings[0].Changes) != 1 || r.Findings[0].Changes[0].Field != e.field {
			t.Errorf("%s -> %s: want one LAUNCH of %s naming %q, got %+v", e.from, e.to, e.server, e.field, r.Findings)
			continue
		}
		f := r.Findings[0]
		if f.Detail != "launch config changed: "+e.field {
			t.Errorf("detail %q", f.Detail)
		}
		if e.field == "args" {
			continue // a URL's host is shown on purpose: it is where the server connects
		}
		shown := f.Detail + f.Changes[0].Pinned + f.Changes[0].Scanned
		if strings.Contains(shown, strings.Trim(e.from, `"`)) || strings.Contains(shown, strings.Trim(e.to, `"`)) {
			t.Errorf("%s: a value is shown: %q", e.field, shown)
		}
	}
	// Two different value changes are two findings, not one that stays open.
	a := Scan(mustConfig(t, strings.Replace(launchBase, `"/good"`, `"/evil"`, 1)), pn, opt)
	b := Scan(mustConfig(t, strings.Replace(launchBase, `"/good"`, `"/evil2"`, 1)), pn, opt)
	if a.Findings[0].ID == b.Findings[0].ID {
		t.Error("two different hidden values give one finding id")
	}
}

// A pin's digests made on another host (another key) cannot be compared:
// the scan says so, and still compares key names and shown forms.
func TestValuesNotComparedOnAnotherHostIsANote(t *testing.T) {
	pn, _ := pin.BuildWith(mustConfig(t, launchBase), pin.Format2, pin.Approval{By: "a", At: "2026-01-01T00:00:00Z"}, pin.Options{Key: otherKey})
	opt := ScanOptions{Key: hostKey, Classes: []engine.Class{engine.Launch}}
	r := Scan(mustConfig(t, strings.Replace(launchBase, `"/good"`, `"/evil"`, 1)), pn, opt)
	if len(r.Findings) != 0 {
		t.Fatalf("findings %+v", r.Findings)
	}
	if got := strings.Join(r.Notes, "\n"); !strings.Contains(got, "server py: values not compared: pinned on another host") {
		t.Fatalf("notes %q", got)
	}
	r = Scan(mustConfig(t, strings.Replace(launchBase, `"PYTHONPATH"`, `"PYTHONHOME"`, 1)), pn, opt)
	if len(r.Findings) != 1 || r.Findings[0].Changes[0].Field != "env keys" || !strings.Contains(strings.Join(r.Notes, "\n"), launch.NoteOtherHost) {
		t.Fatalf("key change on another host's pin: %+v", r.Findings)
	}
	// A pin made without a key (before digests existed) is noted too.
	old, _ := pin.Build(mustConfig(t, launchBase), pin.Format2, pin.Approval{By: "a", At: "2026-01-01T00:00:00Z"})
	if r := Scan(mustConfig(t, launchBase), old, opt); !strings.Contains(strings.Join(r.Notes, "\n"), launch.NoteNoDigests) {
		t.Fatalf("notes %q", r.Notes)
	}
}
