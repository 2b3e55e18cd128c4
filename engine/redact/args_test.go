package redact

import (
	"strings"
	"testing"
)

// Credentials inside arguments: connection strings, URLs with a key in the
// query, header-shaped arguments and secrets in URL paths are redacted, while
// what a reviewer needs (scheme, host, path, header name) stays.
func TestArgsRedactURLAndHeaderShapedCredentials(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{[]string{"-y", "@modelcontextprotocol/server-postgres", "postgres://admin:Pa55w0rd@db.internal/prod"},
			[]string{"-y", "@modelcontextprotocol/server-postgres", "postgres://REDACTED@db.internal/prod"}},
		{[]string{"https://api.example.test/v1?api_key=K3y&mode=x"}, []string{"https://api.example.test/v1?api_key=REDACTED&mode=REDACTED"}},
		{[]string{"-H", "Authorization: Bearer T0k"}, []string{"-H", "Authorization: REDACTED"}},
		{[]string{"--header=X-Api-Key:V4lue"}, []string{"--header=X-Api-Key:REDACTED"}},
		{[]string{"--header", "X-Api-Key: V4lue"}, []string{"--header", "X-Api-Key: REDACTED"}},
		{[]string{"--db=mysql://root:hunter2@127.0.0.1/x"}, []string{"--db=mysql://REDACTED@127.0.0.1/x"}},
		{[]string{"https://mcp.zapier.com/api/mcp/s/ODk5YjQ2ZTYtNDg3Mi00ZTQ5LWI2NjYtNzI4ZGNh/mcp"}, []string{"https://mcp.zapier.com/api/mcp/s/REDACTED/mcp"}},
		{[]string{"https://actions.zapier.com/mcp/sk-ak-0123456789abcdefghijKLMN/sse"}, []string{"https://actions.zapier.com/mcp/REDACTED/sse"}},
		// docker run -e NAME=VALUE and env-style assignments.
		{[]string{"run", "-e", "GITHUB_TOKEN=abc123", "-e", "DATABASE_URL=postgres://u:pw1@db/x", "-e", "LOG_LEVEL=debug"},
			[]string{"run", "-e", "GITHUB_TOKEN=REDACTED", "-e", "DATABASE_URL=postgres://REDACTED@db/x", "-e", "LOG_LEVEL=debug"}},
		// The value after a secret-looking flag is redacted; a URL there keeps its host.
		{[]string{"--oauth-issuer", "https://login.acme.test/tenant?x=1"}, []string{"--oauth-issuer", "https://login.acme.test/tenant?x=REDACTED"}},
		// Not credentials: left as written.
		{[]string{"C:\\mcp\\server.js", "mode:fast", "X-Tenant: acme", "https://example.test/path", "/home/u/my-mcp-server/dist/index.js"},
			[]string{"C:\\mcp\\server.js", "mode:fast", "X-Tenant: acme", "https://example.test/path", "/home/u/my-mcp-server/dist/index.js"}},
	}
	for _, tt := range tests {
		if got := Args(tt.in); strings.Join(got, "\x00") != strings.Join(tt.want, "\x00") {
			t.Errorf("Args(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

func TestURLRedactsSecretPathSegments(t *testing.T) {
	for in, want := range map[string]string{
		"https://mcp.zapier.com/api/mcp/s/ODk5YjQ2ZTYtNDg3Mi00ZTQ5LWI2NjYtNzI4ZGNh/mcp": "https://mcp.zapier.com/api/mcp/s/REDACTED/mcp",
		"https://mcp.example.test/v1/mcp":                                               "https://mcp.example.test/v1/mcp",
	} {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}

// Hiding the value of an assignment can leave a whole that looks like a
// token itself; that whole is hidden, so a second pass keeps what the first
// gave (the fuzz pass found "A000011TOKEN122=0").
func TestArgsHideAWholeThatLooksSecretAfterRedaction(t *testing.T) {
	in := []string{"0", "A000011TOKEN122=0"}
	once := Args(in)
	if once[1] != Redacted {
		t.Fatalf("Args(%q) = %q, want the whole assignment hidden", in, once)
	}
	if twice := Args(once); strings.Join(twice, "\x00") != strings.Join(once, "\x00") {
		t.Fatalf("Args(%q) = %q, again %q", in, once, twice)
	}
	if got := Args([]string{"GITHUB_TOKEN=abc"}); got[0] != "GITHUB_TOKEN=REDACTED" {
		t.Fatalf("a short name keeps its name: %q", got)
	}
}
