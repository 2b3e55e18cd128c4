package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/notify"
	"github.com/descriptorpin/descriptorpin/notify/notifytest"
)

// The webhook sink end to end: the real binary, a real HTTP receiver on
// 127.0.0.1 that checks the Standard Webhooks signature with its own code.

const testSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// invMany changes both pinned tools and adds a third: three findings
// open in one scan.
var invMany = `{"servers": [{"name": "files", "transport": "http", "tools": [
  {"name": "read_file", "description": "Read a file and return its text, and more."},
  {"name": "list_dir", "description": "List a directory, recursively."},
  {"name": "write_file", "description": "Write a file."}]}]}
`

// serviceEnv is the environment of a service under test: this process's,
// minus any session bus, plus extra.
func serviceEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "DBUS_SESSION_BUS_ADDRESS=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

func webhookYAML(url, secretLine string) string {
	return fmt.Sprintf("notify:\n  desktop:\n    enabled: false\n  webhooks:\n    - name: soc\n      url: %s\n      %s\n      min_severity: low\n      timeout: 1s\n", url, secretLine)
}

func (s *svc) openedEvents() []event {
	var out []event
	for _, e := range s.all() {
		if e.action() == "finding-opened" {
			out = append(out, e)
		}
	}
	return out
}

// webhookIDOf is the webhook-id the service gives the delivery of a
// finding-opened event in the log.
func webhookIDOf(e event) string {
	return notify.MessageID(engine.Event{Action: e.action(), Finding: &engine.OpenFinding{
		ID: e.str("descriptorpin.finding.id"), OpenedAt: e.str("descriptorpin.finding.opened_at"),
	}})
}

func TestNotifyWebhookDeliversOneSignedMessagePerFinding(t *testing.T) {
	rcv := notifytest.NewReceiver(t, testSecret)
	s := newSvc(t, []string{"inv.json"}, "")
	secretFile := s.path("webhook.secret")
	if err := os.WriteFile(secretFile, []byte(testSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s.writeConfig(webhookYAML(rcv.URL(), "secret_file: "+secretFile))
	s.env = serviceEnv()
	s.write("inv.json", invClean)
	s.pinFrom("inv.json")
	s.start()
	s.atomicWrite("inv.json", invChanged)
	opened := s.waitAction("finding-opened", "MUTATION")
	rcv.WaitFor(t, "the delivery", 10*time.Second, func(d []notifytest.Delivery) bool { return len(d) >= 1 })
	time.Sleep(300 * time.Millisecond) // nothing more comes
	got := rcv.Deliveries()
	if len(got) != 1 {
		t.Fatalf("%d deliveries for one finding, want 1", len(got))
	}
	d := got[0]
	if !d.Verified {
		t.Fatalf("the Standard Webhooks signature does not verify: %s", d.VerifyErr)
	}
	if at, err := time.Parse(time.RFC3339Nano, opened.str("@timestamp")); err == nil {
		t.Logf("finding-opened at %s, delivered %v later", opened.str("@timestamp"), d.At.Sub(at).Round(time.Millisecond))
	}
	if d.ID != webhookIDOf(opened) {
		t.Errorf("webhook-id %s, want %s", d.ID, webhookIDOf(opened))
	}
	var body struct {
		Type      string         `json:"type"`
		Timestamp string         `json:"timestamp"`
		Data      map[string]any `json:"data"`
	}
	if err := json.Unmarshal(d.Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Type != "finding.opened" || body.Timestamp != opened.str("@timestamp") ||
		body.Data["id"] != opened.str("descriptorpin.finding.id") || body.Data["class"] != "MUTATION" ||
		body.Data["subject"] != "files/read_file" || body.Data["file"] != s.path("inv.json") {
		t.Errorf("body %s", d.Body)
	}
	s.stop()
	data, _ := os.ReadFile(s.events)
	for _, secret := range []string{"T0KEN", "S3CRET", "/hooks/", testSecret[6:]} {
		if strings.Contains(string(data), secret) || strings.Contains(s.stderr.String(), secret) {
			t.Errorf("the event log or stderr holds %q", secret)
		}
	}
}

func TestNotifyWebhookOutageAndSIGKILLLoseNothing(t *testing.T) {
	rcv := notifytest.NewReceiver(t, testSecret)
	rcv.Stop() // the endpoint is down
	s := newSvc(t, []string{"inv.json"}, "")
	s.writeConfig(webhookYAML(rcv.URL(), "secret_env: DP_TEST_WEBHOOK_SECRET"))
	s.env = serviceEnv("DP_TEST_WEBHOOK_SECRET=" + testSecret)
	s.write("inv.json", invClean)
	s.pinFrom("inv.json")
	s.start()
	s.atomicWrite("inv.json", invMany)
	s.waitFor("three finding-opened", func(event) bool { return len(s.openedEvents()) >= 3 })
	failing := s.waitAction(notify.ActionNotifyDegraded, "")
	if !strings.Contains(failing.str("message"), "webhook soc (http://"+rcv.Addr()+"): delivery failed") {
		t.Errorf("degraded event %q", failing.str("message"))
	}
	// SIGKILL: no shutdown of any kind.
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = s.cmd.Wait()
	spooled, _ := os.ReadDir(filepath.Join(s.dir, "state", "spool", "soc", "new"))
	t.Logf("after SIGKILL: %d finding-opened events, %d deliveries spooled", len(s.openedEvents()), len(spooled))

	rcv.Restart() // the endpoint is back
	restarted := time.Now()
	s.start() // and so is the service
	opened := s.openedEvents()
	want := map[string]bool{}
	for _, e := range opened {
		want[webhookIDOf(e)] = true
	}
	got := rcv.WaitFor(t, "every opened finding", 15*time.Second, func(ds []notifytest.Delivery) bool {
		seen := map[string]bool{}
		for _, d := range ds {
			seen[d.ID] = true
		}
		return len(seen) >= len(want)
	})
	t.Logf("after the restart: %d distinct webhook-ids delivered within %v", len(want), time.Since(restarted).Round(time.Millisecond))
	s.stop()
	seen := map[string]bool{}
	for _, d := range got {
		if !d.Verified {
			t.Errorf("delivery %s does not verify: %s", d.ID, d.VerifyErr)
		}
		seen[d.ID] = true
	}
	var missing, extra []string
	for id := range want {
		if !seen[id] {
			missing = append(missing, id)
		}
	}
	for id := range seen {
		if !want[id] {
			extra = append(extra, id)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 || len(extra) > 0 || len(seen) != len(opened) {
		t.Fatalf("%d findings opened, %d distinct webhook-ids delivered; missing %v, unexpected %v", len(opened), len(seen), missing, extra)
	}
	if left, _ := os.ReadDir(filepath.Join(s.dir, "state", "spool", "soc", "new")); len(left) != 0 {
		t.Errorf("%d deliveries left in the spool", len(left))
	}
}

func TestNotifyWebhookGoneIsAnEventAndStopsTheEndpoint(t *testing.T) {
	rcv := notifytest.NewReceiver(t, testSecret)
	rcv.Respond(func(int, notifytest.Delivery) notifytest.Response { return notifytest.Response{Status: 410} })
	s := newSvc(t, []string{"inv.json"}, "")
	s.writeConfig(webhookYAML(rcv.URL(), "secret_env: DP_TEST_WEBHOOK_SECRET"))
	s.env = serviceEnv("DP_TEST_WEBHOOK_SECRET=" + testSecret)
	s.write("inv.json", invClean)
	s.pinFrom("inv.json")
	s.start()
	s.atomicWrite("inv.json", invMany)
	gone := s.waitFor("endpoint gone", func(e event) bool { return strings.Contains(e.str("message"), "endpoint gone (HTTP 410)") })
	if gone.str("log.level") != "error" || gone.action() != notify.ActionNotifyDegraded {
		t.Errorf("gone event %v", gone)
	}
	time.Sleep(300 * time.Millisecond)
	s.stop()
	if n := len(rcv.Deliveries()); n != 1 {
		t.Errorf("%d requests after a 410, want 1", n)
	}
}

func TestWatchRefusesAWebhookWithoutItsSecret(t *testing.T) {
	s := newSvc(t, []string{"inv.json"}, "")
	s.writeConfig(webhookYAML("https://hooks.example.test/T0KEN", "secret_env: DP_TEST_MISSING_SECRET"))
	s.write("inv.json", invClean)
	cmd := s.command("watch", "--config", s.cfg)
	cmd.Env = serviceEnv()
	out, err := cmd.CombinedOutput()
	if code := exitOf(err); code != 2 || !strings.Contains(string(out), "DP_TEST_MISSING_SECRET (secret_env) is not set") || strings.Contains(string(out), "T0KEN") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
