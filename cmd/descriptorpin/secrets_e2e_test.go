package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInlineSecretReachesNoOutput runs the service on a client config
// with an inline secret in env, a header, an argument and the URL, then
// greps everything the run produced (the pin, the state, the event log,
// stderr) for the secret values.
func TestInlineSecretReachesNoOutput(t *testing.T) {
	secrets := []string{"ghp_SECRETsecretSECRETsecret0123456789ab", "sk-live-secretSECRETsecret012345", "hdr-Zx81kQ2mP9vL3sT7wY4bN6cR0dF5", "urlZx81kQ2mP9vL3sT7wY4bN6cR0dF5gH1j"}
	cfg := `{"mcpServers": {
  "gh": {"command": "npx", "args": ["-y", "gh-mcp@2.0.0", "--token", "` + secrets[1] + `"], "env": {"GITHUB_TOKEN": "` + secrets[0] + `"}},
  "wiki": {"url": "https://wiki.example.test/mcp?key=` + secrets[3] + `", "headers": {"Authorization": "Bearer ` + secrets[2] + `"}}
}}
`
	s := newSvc(t, nil, "")
	target := s.path(".cursor/mcp.json")
	conf := strings.Replace(readStateFile(t, s.cfg), "targets:\n", "targets:\n  - path: "+target+"\n    kind: client-config\n", 1)
	if err := os.WriteFile(s.cfg, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	s.write(".cursor/mcp.json", cfg)
	s.start()
	s.waitAction("pin-created", "")
	opened := s.waitFor("inline_secret", func(e event) bool { return e.str("rule.id") == "TRANSPORT/inline_secret" })
	for _, where := range []string{"env GITHUB_TOKEN", "header Authorization", "url query key", "args[3]"} {
		if !strings.Contains(opened.str("message")+readStateFile(t, s.events), where) {
			t.Errorf("the inline_secret findings do not name %q", where)
		}
	}
	// A launch change is reported with the secret still redacted.
	s.atomicWrite(".cursor/mcp.json", strings.Replace(cfg, "gh-mcp@2.0.0", "gh-mcp@2.0.1", 1))
	s.waitAction("finding-opened", "LAUNCH")
	s.stop()
	produced := s.stderr.String()
	filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == target || p == s.cfg {
			return nil
		}
		b, _ := os.ReadFile(p)
		produced += "\n--- " + p + "\n" + string(b)
		return nil
	})
	for _, sec := range secrets {
		if strings.Contains(produced, sec) {
			i := strings.Index(produced, sec)
			t.Errorf("secret %q leaked: ...%s...", sec, produced[max(0, i-200):i])
		}
	}
}
