package redact

import (
	"strings"
	"testing"
)

func TestSecretDetection(t *testing.T) {
	secrets := []string{"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "sk-proj-abcdefghijklmnopqrstuv", "AKIAIOSFODNN7EXAMPLE",
		"Bearer abcdefgh12345678", "xoxb-1234567890-abcdefghij", "Zx81kQ2mP9vL3sT7wY4bN6cR0dF5gH1j"}
	for _, s := range secrets {
		if !LooksSecret(s) {
			t.Errorf("%q should look secret", s)
		}
	}
	plain := []string{"${env:GITHUB_TOKEN}", "${input:api-key}", "$TOKEN", "%TOKEN%", "Bearer ${env:TOKEN}", "debug",
		"/home/user/projects/my-mcp-server/dist/index.js", "@modelcontextprotocol/server-filesystem", "https://example.test/path"}
	for _, s := range plain {
		if LooksSecret(s) {
			t.Errorf("%q should not look secret", s)
		}
	}
	if got := Args([]string{"--token", "abc123", "--api-key=xyz", "--name", "files", "--token", "${env:T}"}); strings.Join(got, " ") != "--token REDACTED --api-key=REDACTED --name files --token ${env:T}" {
		t.Errorf("RedactArgs: %v", got)
	}
	if got := URL("https://user:pw@mcp.example.test/x?token=abc&mode=fast#frag"); got != "https://REDACTED@mcp.example.test/x?mode=REDACTED&token=REDACTED" {
		t.Errorf("RedactURL: %s", got)
	}
}
