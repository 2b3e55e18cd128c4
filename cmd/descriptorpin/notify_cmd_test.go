package main

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/notify/notifytest"
)

// descriptorpin notify test, end to end.

func notifyTest(t *testing.T, s *svc, env []string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := s.command("notify", "test", "--config", s.cfg)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return exitOf(err), out.String(), errb.String()
}

func TestNotifyTestReportsEverySink(t *testing.T) {
	bus := notifytest.StartBus(t)
	srv := bus.NewServer(t, notifytest.ServerOptions{})
	rcv := notifytest.NewReceiver(t, testSecret)
	s := newSvc(t, []string{"inv.json"}, "")
	s.writeConfig("notify:\n  desktop:\n    enabled: true\n  webhooks:\n" +
		"    - name: soc\n      url: " + rcv.URL() + "\n      secret_env: DP_TEST_WEBHOOK_SECRET\n" +
		"    - name: chat\n      url: " + rcv.URL() + "\n      format: slack\n")
	code, stdout, stderr := notifyTest(t, s, serviceEnv("DBUS_SESSION_BUS_ADDRESS="+bus.Address, "DP_TEST_WEBHOOK_SECRET="+testSecret))
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^desktop\s+freedesktop notifications on the D-Bus session bus\s+ok\s+notification 1$`),
		regexp.MustCompile(`^webhook soc\s+http://127\.0\.0\.1:\d+\s+ok\s+delivered \(HTTP 204\) in \d+ms$`),
		regexp.MustCompile(`^webhook chat\s+http://127\.0\.0\.1:\d+ \(unsigned\)\s+ok\s+delivered \(HTTP 204\) in \d+ms$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("stdout:\n%s", stdout)
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d %q does not match %s", i, lines[i], re)
		}
	}
	if strings.Contains(stdout+stderr, "T0KEN") || strings.Contains(stdout+stderr, "S3CRET") {
		t.Error("the output shows the webhook URL")
	}
	if c := srv.Calls(); len(c) != 1 || c[0].Summary != "DescriptorPin test notification" {
		t.Errorf("desktop calls %v", c)
	}
	d := rcv.Deliveries()
	if len(d) != 2 || !d[0].Verified || d[1].Signature != "" {
		t.Fatalf("deliveries %+v", d)
	}
	var body struct{ Type string }
	if json.Unmarshal(d[0].Body, &body); body.Type != "notification.test" || !strings.HasPrefix(d[0].ID, "msg_test_") {
		t.Errorf("test delivery %s %s", d[0].ID, d[0].Body)
	}
	if !strings.Contains(string(d[1].Body), `"blocks"`) {
		t.Errorf("slack test delivery %s", d[1].Body)
	}
	// Nothing was spooled: a test goes straight to the endpoint.
	if _, err := os.Stat(s.path("state/spool")); err == nil {
		t.Error("notify test created a spool")
	}
}

func TestNotifyTestFailuresExitOne(t *testing.T) {
	rcv := notifytest.NewReceiver(t, testSecret)
	rcv.Respond(func(int, notifytest.Delivery) notifytest.Response { return notifytest.Response{Status: 500} })
	s := newSvc(t, []string{"inv.json"}, "")
	s.writeConfig("notify:\n  desktop:\n    enabled: true\n  webhooks:\n    - name: soc\n      url: " + rcv.URL() + "\n      secret_env: DP_TEST_WEBHOOK_SECRET\n")
	start := time.Now()
	code, stdout, stderr := notifyTest(t, s, serviceEnv("DP_TEST_WEBHOOK_SECRET="+testSecret)) // no session bus
	if code != 1 || !strings.Contains(stderr, "2 of 2 notification sinks failed") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !regexp.MustCompile(`(?m)^desktop\s.*FAILED\s+desktop notifications unavailable: no D-Bus session bus`).MatchString(stdout) ||
		!regexp.MustCompile(`(?m)^webhook soc\s+http://127\.0\.0\.1:\d+\s+FAILED\s+HTTP 500 after \d+ms \(the service would retry\)$`).MatchString(stdout) {
		t.Errorf("stdout:\n%s", stdout)
	}
	if len(rcv.Deliveries()) != 1 {
		t.Errorf("%d attempts: a test does not retry", len(rcv.Deliveries()))
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
}

func TestNotifyTestConfigErrorsExitTwo(t *testing.T) {
	s := newSvc(t, []string{"inv.json"}, "")
	base, _ := os.ReadFile(s.cfg)
	for name, tc := range map[string]struct {
		yaml, env, want string
	}{
		"no sinks":   {"notify:\n  desktop:\n    enabled: false\n", "", "no notification sink is configured"},
		"bad secret": {"notify:\n  webhooks:\n    - url: https://hooks.example.test/T0KEN\n      secret_env: DP_S\n", "DP_S=whsec_n0t-b4se64!!", "not a Standard Webhooks secret"},
		"no secret":  {"notify:\n  webhooks:\n    - url: https://hooks.example.test/T0KEN\n      secret_env: DP_S\n", "", "DP_S (secret_env) is not set"},
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(s.cfg, append(append([]byte(nil), base...), tc.yaml...), 0o644); err != nil {
				t.Fatal(err)
			}
			env := serviceEnv()
			if tc.env != "" {
				env = append(env, tc.env)
			}
			code, stdout, stderr := notifyTest(t, s, env)
			if code != 2 || !strings.Contains(stderr, tc.want) || stdout != "" {
				t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if strings.Contains(stderr, "T0KEN") || strings.Contains(stderr, "n0t-b4se64") {
				t.Errorf("stderr shows a secret:\n%s", stderr)
			}
		})
	}
	for _, args := range [][]string{{"notify"}, {"notify", "send"}, {"notify", "test", "extra"}} {
		cmd := s.command(args...)
		out, err := cmd.CombinedOutput()
		if exitOf(err) != 2 || !strings.Contains(string(out), "hint: run 'descriptorpin help notify'") {
			t.Errorf("%v: exit %d\n%s", args, exitOf(err), out)
		}
	}
}

// Issue 17: notify test checks the sinks; it needs no watch targets. A
// config with none and discover: false runs it, and only watch refuses.
func TestNotifyTestNeedsNoWatchTargets(t *testing.T) {
	rcv := notifytest.NewReceiver(t, testSecret)
	s := newSvc(t, nil, "")
	s.writeConfig("notify:\n  desktop:\n    enabled: false\n  webhooks:\n    - name: soc\n      url: " + rcv.URL() + "\n      secret_env: DP_TEST_WEBHOOK_SECRET\n")
	code, stdout, stderr := notifyTest(t, s, serviceEnv("DP_TEST_WEBHOOK_SECRET="+testSecret))
	if code != 0 || !strings.Contains(stdout, "delivered") {
		t.Fatalf("notify test: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	cmd := s.command("watch", "--config", s.cfg)
	cmd.Env = serviceEnv()
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if code := exitOf(cmd.Run()); code != 2 || !strings.Contains(errb.String(), "nothing to watch") {
		t.Errorf("watch: exit %d, stderr %q; want 2 and 'nothing to watch'", code, errb.String())
	}
}
