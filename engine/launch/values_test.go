package launch

import (
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/redact"
)

var testKey = Key("0123456789abcdef0123456789abcdef")

func approvedOf(s *engine.Server, key Key) *Approved {
	ps := &engine.Server{Name: s.Name, Transport: s.Transport, Command: s.Command, Args: redact.Args(s.Args), URL: redact.URL(s.URL),
		EnvKeys: s.EnvKeys, HeaderKeys: s.HeaderKeys}
	if len(s.Extra) > 0 {
		ps.Extra = map[string]string{}
		for k, v := range s.Extra {
			ps.Extra[k] = RedactExtra(k, v)
		}
	}
	return &Approved{Server: ps, KeyID: key.ID(), Values: Values(s, key)}
}

// The scheduled capture runs a server unattended only when its real
// launch, values included, is the approved one.
func TestMatchesApprovedComparesRealValues(t *testing.T) {
	base := func() *engine.Server {
		s := withEnv(stdio("python3", "-m", "srv", "--token", "tok-1"), "PYTHONPATH", "/good")
		s.Name = "py"
		return s
	}
	a := approvedOf(base(), testKey)
	if !MatchesApproved(a, base(), testKey) {
		t.Fatal("the approved launch does not match itself")
	}
	evil := base()
	evil.Env["PYTHONPATH"] = "/evil"
	tok := base()
	tok.Args[3] = "tok-2"
	for name, s := range map[string]*engine.Server{"env value": evil, "redacted argument": tok} {
		if MatchesApproved(a, s, testKey) {
			t.Errorf("%s change matches", name)
		}
		if Matches(a.Server, s) != true {
			t.Errorf("%s: the redacted-only Matches was expected to be blind to it", name)
		}
	}
	if MatchesApproved(a, base(), Key("another-key-another-key-another-")) {
		t.Error("a launch whose values cannot be compared (another host's key) matches")
	}
	if MatchesApproved(a, base(), nil) || MatchesApproved(nil, base(), testKey) {
		t.Error("no key or no record matches")
	}
	noDigests := approvedOf(base(), nil)
	if MatchesApproved(noDigests, base(), testKey) {
		t.Error("a record without digests matches a launch with hidden values")
	}
	plain := stdio("node", "/opt/srv.js")
	if !MatchesApproved(approvedOf(plain, nil), plain, nil) {
		t.Error("a launch that hides nothing does not match without a key")
	}
}

func TestKeyedDigestsHideShortValues(t *testing.T) {
	s := withEnv(stdio("node", "s.js"), "PIN", "1234")
	v := Values(s, testKey)
	d := v["env PIN"]
	if len(d) != 32 || strings.Contains(d, "1234") {
		t.Fatalf("digest %q", d)
	}
	if Values(s, Key("another-key-another-key-another-"))["env PIN"] == d {
		t.Error("the digest does not depend on the key")
	}
	if testKey.ID() == Key("another-key-another-key-another-").ID() || len(testKey.ID()) != 16 {
		t.Error("key ids")
	}
	if Values(s, nil) != nil {
		t.Error("digests without a key")
	}
}
