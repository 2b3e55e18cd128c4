package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/notify/notifytest"
)

// reports collects what a sink reports about itself.
type reports struct {
	mu  sync.Mutex
	evs []engine.Event
}

func (r *reports) add(ev engine.Event) {
	r.mu.Lock()
	r.evs = append(r.evs, ev)
	r.mu.Unlock()
}

func (r *reports) all() []engine.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]engine.Event(nil), r.evs...)
}

// wait returns the first report containing text, failing after 10s.
func (r *reports) wait(t *testing.T, text string) engine.Event {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, ev := range r.all() {
			if strings.Contains(ev.Message, text) {
				return ev
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no report containing %q; reports: %+v", text, r.all())
	return engine.Event{}
}

func newTestWebhook(t *testing.T, url, spoolDir string, mod func(*WebhookOptions)) (*Webhook, *reports) {
	t.Helper()
	reps := &reports{}
	opt := WebhookOptions{
		Name: "soc", URL: url, Secret: vectorSecret, SpoolDir: spoolDir,
		Timeout: 2 * time.Second, BackoffBase: 10 * time.Millisecond, BackoffMax: 50 * time.Millisecond,
		Host: "test-host", Version: "test", Report: reps.add,
	}
	if mod != nil {
		mod(&opt)
	}
	w, err := NewWebhook(opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, reps
}

func ids(ds []notifytest.Delivery) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.ID
	}
	return out
}

func atLeast(n int) func([]notifytest.Delivery) bool {
	return func(d []notifytest.Delivery) bool { return len(d) >= n }
}

func TestWebhookDeliversOneSignedRequestPerFinding(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	w, reps := newTestWebhook(t, rcv.URL(), t.TempDir(), nil)
	a, b := finding("a", "MUTATION", "high", "files"), finding("b", "ADDED", "medium", "files")
	w.Send(opened(a))
	w.Send(engine.Event{Action: engine.ActionDaemonStarted}) // not a notification
	w.Send(opened(finding("c", "REMOVED", "low", "files")))  // below min_severity (medium)
	w.Send(opened(b))
	rcv.WaitFor(t, "two deliveries", 10*time.Second, atLeast(2))
	time.Sleep(100 * time.Millisecond)
	got := rcv.Deliveries()
	if len(got) != 2 {
		t.Fatalf("%d deliveries, want 2: %v", len(got), ids(got))
	}
	for i, f := range []*engine.OpenFinding{a, b} {
		d := got[i]
		if !d.Verified {
			t.Errorf("delivery %d: signature does not verify: %s", i, d.VerifyErr)
		}
		if d.ID != MessageID(opened(f)) {
			t.Errorf("delivery %d: webhook-id %s, want %s", i, d.ID, MessageID(opened(f)))
		}
		if ct := d.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
		var body struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		if err := json.Unmarshal(d.Body, &body); err != nil || body.Type != "finding.opened" || body.Data["id"] != f.ID {
			t.Errorf("delivery %d body %s (%v)", i, d.Body, err)
		}
	}
	if w.Pending() != 0 {
		t.Errorf("%d deliveries still spooled", w.Pending())
	}
	if len(reps.all()) != 0 {
		t.Errorf("reports on a healthy endpoint: %+v", reps.all())
	}
}

func TestWebhookRetries5xxWithTheSameIDAndAFreshSignature(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	rcv.Respond(func(n int, _ notifytest.Delivery) notifytest.Response {
		if n < 3 {
			return notifytest.Response{Status: 500 + n} // 500, 501, 502
		}
		return notifytest.Response{Status: 200}
	})
	w, reps := newTestWebhook(t, rcv.URL(), t.TempDir(), nil)
	w.Send(opened(finding("a", "MUTATION", "high", "files")))
	got := rcv.WaitFor(t, "the fourth attempt", 10*time.Second, atLeast(4))
	for i, d := range got {
		if d.ID != got[0].ID || !d.Verified {
			t.Errorf("attempt %d: id %s verified %v (%s)", i, d.ID, d.Verified, d.VerifyErr)
		}
	}
	degraded := reps.wait(t, "delivery failed (HTTP 500)")
	if degraded.Action != ActionNotifyDegraded || degraded.Level != "warn" {
		t.Errorf("degraded report %+v", degraded)
	}
	reps.wait(t, "delivering again after 3 failed attempts")
	n := 0
	for _, ev := range reps.all() {
		if ev.Action == ActionNotifyDegraded {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d degraded reports for one failing spell, want 1", n)
	}
}

func TestWebhookHonoursRetryAfterOn429(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	rcv.Respond(func(n int, _ notifytest.Delivery) notifytest.Response {
		if n == 0 {
			return notifytest.Response{Status: 429, Header: map[string]string{"Retry-After": "1"}}
		}
		return notifytest.Response{Status: 204}
	})
	// A backoff of a few milliseconds: only Retry-After can explain a
	// wait of a second.
	w, reps := newTestWebhook(t, rcv.URL(), t.TempDir(), nil)
	w.Send(opened(finding("a", "MUTATION", "high", "files")))
	got := rcv.WaitFor(t, "the retry", 10*time.Second, atLeast(2))
	if gap := got[1].At.Sub(got[0].At); gap < 950*time.Millisecond {
		t.Errorf("retried %v after a 429 with Retry-After: 1", gap)
	}
	if got[0].ID != got[1].ID {
		t.Error("the retry has another webhook-id")
	}
	reps.wait(t, "HTTP 429, Retry-After 1s")
}

func TestWebhookRetries408(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	rcv.Respond(func(n int, _ notifytest.Delivery) notifytest.Response {
		if n == 0 {
			return notifytest.Response{Status: 408}
		}
		return notifytest.Response{Status: 204}
	})
	w, _ := newTestWebhook(t, rcv.URL(), t.TempDir(), nil)
	w.Send(opened(finding("a", "MUTATION", "high", "files")))
	got := rcv.WaitFor(t, "the retry", 10*time.Second, atLeast(2))
	if got[0].ID != got[1].ID {
		t.Error("the retry has another webhook-id")
	}
}

// Issue 12, item 11: after one 410, the findings that followed were not
// spooled at all (13 lost). The endpoint is not tried again in this run,
// but everything is spooled and delivered after the next start.
func TestWebhook410StopsDeliveryButKeepsSpoolingForTheNextStart(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	rcv.Respond(func(int, notifytest.Delivery) notifytest.Response { return notifytest.Response{Status: 410} })
	dir := t.TempDir()
	w, reps := newTestWebhook(t, rcv.URL(), dir, nil)
	w.Send(opened(finding("a", "MUTATION", "high", "files")))
	w.Send(opened(finding("b", "MUTATION", "high", "files")))
	gone := reps.wait(t, "endpoint gone (HTTP 410)")
	// How many were spooled when the 410 came depends on whether the
	// worker took the first before the second was sent: one or two.
	if gone.Level != "error" || gone.Action != ActionNotifyDegraded || !regexp.MustCompile(`[12] deliver(y|ies) kept`).MatchString(gone.Message) ||
		!strings.Contains(gone.Message, "new ones are spooled") {
		t.Errorf("gone report %+v", gone)
	}
	for i := 0; i < 13; i++ {
		w.Send(opened(finding(fmt.Sprintf("after%d", i), "MUTATION", "high", "files")))
	}
	time.Sleep(300 * time.Millisecond)
	if n := len(rcv.Deliveries()); n != 1 {
		t.Errorf("%d requests after a 410, want 1 (no retries)", n)
	}
	if w.Pending() != 15 || w.Lost() != 0 || !w.Gone() {
		t.Errorf("pending %d lost %d gone %v; want all 15 spooled, none lost, gone", w.Pending(), w.Lost(), w.Gone())
	}
	w.Close()
	// The next start tries again (the endpoint may be back, or the
	// config fixed): the first one again, then all 15.
	rcv.Respond(nil)
	newTestWebhook(t, rcv.URL(), dir, nil)
	got := rcv.WaitFor(t, "the kept deliveries after a restart", 10*time.Second, atLeast(16))
	seen := map[string]bool{}
	for _, d := range got[1:] {
		seen[d.ID] = true
	}
	if len(seen) != 15 {
		t.Errorf("%d distinct deliveries after the restart, want 15", len(seen))
	}
}

func TestWebhookDropsOn4xxWithoutRetrying(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	rcv.Respond(func(n int, _ notifytest.Delivery) notifytest.Response {
		if n == 0 {
			return notifytest.Response{Status: 400}
		}
		return notifytest.Response{Status: 204}
	})
	w, reps := newTestWebhook(t, rcv.URL(), t.TempDir(), nil)
	a, b := finding("a", "MUTATION", "high", "files"), finding("b", "MUTATION", "high", "files")
	w.Send(opened(a))
	w.Send(opened(b))
	rcv.WaitFor(t, "the second delivery", 10*time.Second, atLeast(2))
	time.Sleep(200 * time.Millisecond)
	got := rcv.Deliveries()
	if len(got) != 2 || got[0].ID != MessageID(opened(a)) || got[1].ID != MessageID(opened(b)) {
		t.Errorf("requests %v: want a once (400, not retried) then b", ids(got))
	}
	rej := reps.wait(t, "rejected (HTTP 400) and dropped")
	if rej.Level != "error" || !strings.Contains(rej.Message, MessageID(opened(a))) {
		t.Errorf("reject report %+v", rej)
	}
}

func TestWebhookHangingEndpointTimesOutAndNeverBlocksSend(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	rcv.Respond(func(n int, _ notifytest.Delivery) notifytest.Response {
		if n == 0 {
			return notifytest.Response{Hang: true}
		}
		return notifytest.Response{Status: 204}
	})
	w, reps := newTestWebhook(t, rcv.URL(), t.TempDir(), func(o *WebhookOptions) { o.Timeout = time.Second })
	w.Send(opened(finding("a", "MUTATION", "high", "files")))
	rcv.WaitFor(t, "the hanging request", 5*time.Second, atLeast(1))
	// The worker is stuck in the hanging request; Send still only spools.
	start := time.Now()
	for i := 0; i < 20; i++ {
		w.Send(opened(finding(string(rune('b'+i)), "MUTATION", "high", "files")))
	}
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("20 Sends took %v while the endpoint hung for 1s: Send waited on the network", took)
	}
	got := rcv.WaitFor(t, "all 21 after the timeout", 10*time.Second, atLeast(22))
	if got[1].ID != got[0].ID {
		t.Errorf("the request after the timeout is %s, want the retry of %s", got[1].ID, got[0].ID)
	}
	if gap := got[1].At.Sub(got[0].At); gap < time.Second {
		t.Errorf("retried %v after a hanging request, before the 1s timeout", gap)
	}
	reps.wait(t, "no response within 1s")
}

func TestWebhookCloseAbandonsAHangingAttemptAndKeepsIt(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	rcv.Respond(func(int, notifytest.Delivery) notifytest.Response { return notifytest.Response{Hang: true} })
	dir := t.TempDir()
	w, _ := newTestWebhook(t, rcv.URL(), dir, func(o *WebhookOptions) { o.Timeout = time.Minute })
	w.Send(opened(finding("a", "MUTATION", "high", "files")))
	rcv.WaitFor(t, "the hanging request", 5*time.Second, atLeast(1))
	start := time.Now()
	w.Close()
	if took := time.Since(start); took > time.Second {
		t.Errorf("Close took %v with a hanging attempt", took)
	}
	if files, _ := os.ReadDir(filepath.Join(dir, "new")); len(files) != 1 {
		t.Errorf("%d spooled after Close, want the abandoned delivery kept", len(files))
	}
}

func TestWebhookFollowsNoRedirect(t *testing.T) {
	var hits sync.Map
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Store(r.URL.Path, true)
		w.WriteHeader(204)
	}))
	defer target.Close()
	rcv := notifytest.NewReceiver(t, vectorSecret)
	rcv.Respond(func(n int, _ notifytest.Delivery) notifytest.Response {
		if n < 2 {
			return notifytest.Response{Status: 302, Header: map[string]string{"Location": target.URL + "/elsewhere"}}
		}
		return notifytest.Response{Status: 204}
	})
	w, reps := newTestWebhook(t, rcv.URL(), t.TempDir(), nil)
	w.Send(opened(finding("a", "MUTATION", "high", "files")))
	rcv.WaitFor(t, "the delivery after two redirects", 10*time.Second, atLeast(3))
	if _, ok := hits.Load("/elsewhere"); ok {
		t.Error("the redirect was followed")
	}
	reps.wait(t, "redirects are not followed")
}

func TestWebhookNeverShowsItsURLOrSecret(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	rcv.Respond(func(int, notifytest.Delivery) notifytest.Response { return notifytest.Response{Status: 503} })
	w, reps := newTestWebhook(t, rcv.URL(), t.TempDir(), nil)
	w.Send(opened(finding("a", "MUTATION", "high", "files")))
	reps.wait(t, "delivery failed")
	w.Close()
	rcv.Stop() // connection refused from now on
	w2, reps2 := newTestWebhook(t, rcv.URL(), t.TempDir(), nil)
	w2.Send(opened(finding("b", "MUTATION", "high", "files")))
	reps2.wait(t, "delivery failed")
	_, testErr := w2.Test(context.Background())
	texts := []string{w.Name(), w.Target(), testErr.Error()}
	for _, ev := range append(reps.all(), reps2.all()...) {
		texts = append(texts, ev.Message, ev.Error)
	}
	for _, s := range texts {
		for _, secret := range []string{"T0KEN", "S3CRET", "/hooks", "whsec_", vectorSecret[6:]} {
			if strings.Contains(s, secret) {
				t.Errorf("%q shows %q", s, secret)
			}
		}
	}
	if !strings.Contains(reps.all()[0].Message, "http://"+rcv.Addr()) {
		t.Errorf("reports do not name the host: %q", reps.all()[0].Message)
	}
}

func TestWebhookSpoolSurvivesAStopAndResumesAtStart(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	rcv.Stop()
	dir := t.TempDir()
	w, reps := newTestWebhook(t, rcv.URL(), dir, nil)
	a, b := finding("a", "MUTATION", "high", "files"), finding("b", "MUTATION", "high", "files")
	w.Send(opened(a))
	w.Send(opened(b))
	reps.wait(t, "delivery failed")
	w.Close()
	rcv.Restart()
	newTestWebhook(t, rcv.URL(), dir, nil)
	got := rcv.WaitFor(t, "both deliveries", 10*time.Second, atLeast(2))
	if got[0].ID != MessageID(opened(a)) || got[1].ID != MessageID(opened(b)) || !got[0].Verified || !got[1].Verified {
		t.Errorf("after the restart: %v", ids(got))
	}
}

func TestWebhookSpoolOverflowDropsWithAReport(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	rcv.Stop()
	w, reps := newTestWebhook(t, rcv.URL(), t.TempDir(), func(o *WebhookOptions) { o.MaxFiles = 2 })
	for _, id := range []string{"a", "b", "c", "d"} {
		w.Send(opened(finding(id, "MUTATION", "high", "files")))
	}
	ev := reps.wait(t, "spool full")
	if ev.Level != "error" || !strings.Contains(ev.Message, MessageID(opened(finding("a", "MUTATION", "high", "files")))) {
		t.Errorf("overflow report %+v", ev)
	}
	if w.Pending() != 2 {
		t.Errorf("%d spooled, want the cap of 2", w.Pending())
	}
}

func TestWebhookTestSendsOneUnspooledMessage(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	w, err := NewWebhook(WebhookOptions{URL: rcv.URL(), Secret: vectorSecret, Format: FormatSlack})
	if err != nil {
		t.Fatal(err)
	}
	detail, err := w.Test(context.Background())
	if err != nil || !strings.Contains(detail, "HTTP 204") {
		t.Fatalf("Test = %q, %v", detail, err)
	}
	d := rcv.Deliveries()
	if len(d) != 1 || !d[0].Verified || !strings.HasPrefix(d[0].ID, "msg_test_") || !strings.Contains(string(d[0].Body), `"blocks"`) {
		t.Errorf("test delivery %+v", d)
	}
	rcv.Respond(func(int, notifytest.Delivery) notifytest.Response { return notifytest.Response{Status: 401} })
	if _, err := w.Test(context.Background()); err == nil || !strings.Contains(err.Error(), "HTTP 401") {
		t.Errorf("Test against a 401 = %v", err)
	}
}

func TestClassifyAndRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	for code, want := range map[int]outcome{
		200: delivered, 202: delivered, 204: delivered,
		301: retry, 302: retry, 308: retry,
		400: rejected, 401: rejected, 403: rejected, 404: rejected, 413: rejected, 422: rejected,
		408: retry, 429: retry, 410: gone,
		500: retry, 502: retry, 503: retry, 504: retry,
	} {
		if got := classify(&http.Response{StatusCode: code, Header: http.Header{}}, time.Hour, now).kind; got != want {
			t.Errorf("HTTP %d: %v, want %v", code, got, want)
		}
	}
	for v, want := range map[string]time.Duration{
		"":                              0,
		"0":                             0,
		"-5":                            0,
		"junk":                          0,
		"120":                           2 * time.Minute,
		"99999999":                      time.Hour, // capped
		"Mon, 30 Nov 2026 10:00:30 GMT": 30 * time.Second,
		"Mon, 30 Nov 2026 09:00:00 GMT": 0, // past
	} {
		if got := retryAfter(v, now, time.Hour); got != want {
			t.Errorf("Retry-After %q = %v, want %v", v, got, want)
		}
	}
}

func TestBackoffIsFullJitterUnderADoublingCap(t *testing.T) {
	w := &Webhook{opt: WebhookOptions{BackoffBase: 100 * time.Millisecond, BackoffMax: time.Second}}
	for n, ceiling := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 4: 800 * time.Millisecond, 5: time.Second, 50: time.Second} {
		var maxSeen time.Duration
		for i := 0; i < 2000; i++ {
			d := w.backoff(n)
			if d < 0 || d > ceiling {
				t.Fatalf("backoff(%d) = %v, outside [0, %v]", n, d, ceiling)
			}
			maxSeen = max(maxSeen, d)
		}
		if maxSeen < ceiling/2 {
			t.Errorf("backoff(%d) never went above %v of a %v ceiling: not jittered over the whole range", n, maxSeen, ceiling)
		}
	}
}

func TestNewWebhookRejectsBadOptions(t *testing.T) {
	for name, opt := range map[string]WebhookOptions{
		"no scheme":  {URL: "hooks.example/x"},
		"ftp":        {URL: "ftp://hooks.example/x"},
		"format":     {URL: "https://hooks.example/x", Format: "xml"},
		"bad secret": {URL: "https://hooks.example/x", Secret: "whsec_???"},
	} {
		_, err := NewWebhook(opt)
		if err == nil {
			t.Errorf("%s: nil error", name)
			continue
		}
		if strings.Contains(err.Error(), "/x") || strings.Contains(err.Error(), "???") {
			t.Errorf("%s: error shows the URL or secret: %v", name, err)
		}
	}
}
