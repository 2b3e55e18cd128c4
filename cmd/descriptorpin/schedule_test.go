package main

import (
	"os"
	"strings"
	"testing"
)

// TestWatchCapturesOnSchedule: with capture enabled the service captures a
// client config's stdio server (its launch config pinned by trust on first
// use) and scans the inventory it wrote: the first tool list of a server
// whose launch config is pinned is trusted on first use (a pin change, no
// ADDED findings). Without allow_exec nothing runs.
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
				ev := s.waitAction("pin-changed", "")
				if !strings.Contains(ev.str("message"), "first capture of claude-desktop:local: trusted") {
					t.Fatalf("got %v", ev)
				}
				if pin := readStateFile(t, s.pin); !strings.Contains(pin, `"key": "claude-desktop:local/`) {
					t.Fatalf("the first capture is not in the pin:\n%s", pin)
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
