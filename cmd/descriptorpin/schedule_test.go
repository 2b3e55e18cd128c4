package main

import (
	"os"
	"strings"
	"testing"
)

// TestWatchCapturesOnSchedule: with capture enabled the service captures a
// client config's stdio server (its launch config pinned by trust on first
// use) and scans the inventory it wrote: the tools are ADDED (a file that
// appears later is never auto-pinned). Without allow_exec nothing runs.
func TestWatchCapturesOnSchedule(t *testing.T) {
	for _, allow := range []bool{true, false} {
		name := "allow_exec"
		if !allow {
			name = "no_allow_exec"
		}
		t.Run(name, func(t *testing.T) {
			s := newSvc(t, nil, "")
			cfgDir := s.path("client")
			if err := os.MkdirAll(cfgDir, 0o755); err != nil {
				t.Fatal(err)
			}
			client := writeConfig(t, cfgDir, map[string]any{"local": stdioEntry(t, "-mode", "paginated")})
			out := s.path("inv/captured.json")
			extra := "capture:\n  enabled: true\n  interval: 1h\n  timeout: 20s\n  allow_exec: " + map[bool]string{true: "true", false: "false"}[allow] +
				"\n  configs:\n    - path: " + client + "\n      output: " + out + "\n"
			conf := strings.Replace(readStateFile(t, s.cfg), "targets:\n", "targets:\n  - path: "+client+"\n    kind: client-config\n", 1) + extra
			if err := os.WriteFile(s.cfg, []byte(conf), 0o644); err != nil {
				t.Fatal(err)
			}
			s.start()
			s.waitAction("pin-created", "")
			if allow {
				ev := s.waitAction("finding-opened", "ADDED")
				if !strings.HasPrefix(ev.str("descriptorpin.finding.subject"), "claude-desktop:local/") || ev.str("file.path") != out {
					t.Fatalf("got %v in %s", ev, ev.str("file.path"))
				}
				if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o600 {
					t.Fatalf("inventory not written 0600: %v", err)
				}
			} else {
				s.waitFor("capture refused", func(e event) bool {
					return e.action() == "scan-failed" && strings.Contains(e.str("message"), "needs capture.allow_exec")
				})
				if _, err := os.Stat(out); err == nil {
					t.Fatal("an inventory was written without allow_exec")
				}
			}
			s.stop()
		})
	}
}
