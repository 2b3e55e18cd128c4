package redact

import (
	"strings"
	"testing"
)

// Redacting twice changes nothing: the pinned (already redacted) side of a
// launch comparison is redacted again, so a second pass must keep it.
func FuzzArgsIdempotent(f *testing.F) {
	for _, s := range []string{"postgres://admin:pw@db/prod", "https://api/v1?api_key=K", "Authorization: Bearer T", "--header=X-Api-Key:V",
		"https://mcp.zapier.com/api/mcp/s/ZapPathSecret0123456789abcdefXYZ05/mcp", "GITHUB_TOKEN=abc", "--token", "x", "C:\\x", "http://[::1"} {
		f.Add(s, "--flag")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		once := Args([]string{b, a})
		twice := Args(once)
		if strings.Join(once, "\x00") != strings.Join(twice, "\x00") {
			t.Fatalf("Args(%q) = %q, again %q", []string{b, a}, once, twice)
		}
		if u := URL(a); URL(u) != u {
			t.Fatalf("URL(%q) = %q, again %q", a, u, URL(u))
		}
	})
}
