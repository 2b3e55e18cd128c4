package service

import (
	"strings"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/notify"
	"github.com/descriptorpin/descriptorpin/notify/notifytest"
)

const testSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// startWithSinks runs the harness's service behind the sinks of its
// config; the sinks report into the same recorder, as into the event log.
func (h *harness) startWithSinks(opt SinkOptions) (stopSinks func()) {
	h.t.Helper()
	sink, stop, err := BuildSinks(h.cfg, h.rec, opt)
	if err != nil {
		h.t.Fatal(err)
	}
	h.startSink(sink)
	return stop
}

// waitEvent polls the recorder for an event the sinks emit on their own
// goroutines.
func (h *harness) waitEvent(what string, match func(engine.Event) bool) engine.Event {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, ev := range h.rec.events() {
			if match(ev) {
				return ev
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.t.Fatalf("no %s event in %v", what, summary(h.rec.events()))
	return engine.Event{}
}

func TestDesktopServerThatNeverAnswersDoesNotStallTheService(t *testing.T) {
	bus := notifytest.StartBus(t)
	bus.NewServer(t, notifytest.ServerOptions{Hang: true})
	h := newHarness(t, "inv.json")
	h.cfg.Notify.Desktop = config.Desktop{Enabled: true, MinSeverity: engine.Low}
	h.write("inv.json", invClean)
	h.pinFrom(invClean, nil)
	stopSinks := h.startWithSinks(SinkOptions{
		Getenv: func(k string) string {
			if k == "DBUS_SESSION_BUS_ADDRESS" {
				return bus.Address
			}
			return ""
		},
		Desktop: func(o notify.DesktopOptions) *notify.Desktop {
			o.Timeout = 500 * time.Millisecond // instead of 5s
			return notify.NewDesktop(o)
		},
	})
	// Scans go on, one after the other, while the server hangs.
	for i := 0; i < 3; i++ {
		h.write("inv.json", invChanged)
		h.changed("inv.json")
		h.write("inv.json", invClean)
		h.changed("inv.json")
	}
	var opened, resolved int
	for _, ev := range h.rec.events() {
		switch ev.Action {
		case engine.ActionFindingOpened:
			opened++
		case engine.ActionFindingResolved:
			resolved++
		}
	}
	if opened != 3 || resolved != 3 {
		t.Errorf("%d opened, %d resolved while the desktop hangs, want 3 and 3", opened, resolved)
	}
	ev := h.waitEvent("desktop failure", func(e engine.Event) bool {
		return e.Action == notify.ActionNotifyDegraded && strings.Contains(e.Message, "did not answer")
	})
	if ev.Level != "warn" {
		t.Errorf("event %+v", ev)
	}
	start := time.Now()
	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	stopSinks()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("stopping took %v with a hanging notification server", took)
	}
}

// TestWebhookRetriesWithTheInjectedBackoff: an endpoint failing twice gets
// the delivery on the third attempt, milliseconds apart with a 20ms/200ms
// backoff, and the failure and the recovery are reported.
func TestWebhookRetriesWithTheInjectedBackoff(t *testing.T) {
	rcv := notifytest.NewReceiver(t, testSecret)
	rcv.Respond(func(n int, _ notifytest.Delivery) notifytest.Response {
		if n < 2 {
			return notifytest.Response{Status: 503}
		}
		return notifytest.Response{Status: 204}
	})
	h := newHarness(t, "inv.json")
	h.cfg.Notify.Desktop.Enabled = false
	h.cfg.Notify.Webhooks = []config.Webhook{{Name: "soc", URL: rcv.URL(), Format: config.WebhookStandard,
		SecretEnv: "DP_SECRET", MinSeverity: engine.Low, Timeout: time.Second}}
	h.write("inv.json", invClean)
	h.pinFrom(invClean, nil)
	stopSinks := h.startWithSinks(SinkOptions{
		Getenv:      func(k string) string { return map[string]string{"DP_SECRET": testSecret}[k] },
		BackoffBase: 20 * time.Millisecond, BackoffMax: 200 * time.Millisecond,
	})
	defer stopSinks()
	h.write("inv.json", invChanged)
	h.changed("inv.json")
	got := rcv.WaitFor(t, "the delivery", 5*time.Second, func(d []notifytest.Delivery) bool { return len(d) >= 3 })
	if !got[2].Verified || got[0].ID != got[2].ID {
		t.Errorf("deliveries %+v", got)
	}
	h.waitEvent("recovery", func(e engine.Event) bool { return e.Action == notify.ActionNotifyRecovered })
	h.waitEvent("failure", func(e engine.Event) bool {
		return e.Action == notify.ActionNotifyDegraded && strings.Contains(e.Message, "delivery failed")
	})
}
