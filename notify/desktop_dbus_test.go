package notify

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/descriptorpin/descriptorpin/notify/notifytest"
)

// These run against a real dbus-daemon (a private session bus the test
// starts) and a notification server on it that records every call.

func dbusDesktop(t *testing.T, address string, mod func(*DesktopOptions)) (*Desktop, *reports) {
	t.Helper()
	reps := &reports{}
	opt := DesktopOptions{
		Window: 100 * time.Millisecond, Timeout: 500 * time.Millisecond, Report: reps.add,
		backend: newDBusNotifier(address, "DescriptorPin"),
	}
	if mod != nil {
		mod(&opt)
	}
	d := NewDesktop(opt)
	d.Start()
	t.Cleanup(func() { d.Close() })
	return d, reps
}

func TestDBusBurstIsOneSanitisedNotificationThatReplacesTheLast(t *testing.T) {
	bus := notifytest.StartBus(t)
	srv := bus.NewServer(t, notifytest.ServerOptions{}) // reads body markup
	d, reps := dbusDesktop(t, bus.Address, nil)
	for i := 0; i < 3; i++ {
		f := hostileFinding()
		f.ID = fmt.Sprint(i)
		d.Send(opened(f))
	}
	first := srv.WaitCalls(t, 1, 10*time.Second)[0]
	if first.ReplacesID != 0 || first.AppName != "DescriptorPin" {
		t.Errorf("first call %v", first)
	}
	// The summary is plain text by the spec: no markup character of the
	// hostile server name reaches it, and it stays about 40 characters.
	if !strings.HasPrefix(first.Summary, "3 findings in ") || strings.ContainsAny(first.Summary, "<>&") || utf8.RuneCountInString(first.Summary) > 40 {
		t.Errorf("summary %q", first.Summary)
	}
	for name, s := range map[string]string{"summary": first.Summary, "body": first.Body} {
		for _, raw := range []string{"\x1b", "\u202e", "\u200b", "\r", "\U000E0041"} {
			if strings.Contains(s, raw) {
				t.Errorf("%s carries the raw %q: %q", name, raw, s)
			}
		}
	}
	// The server reads markup: the body arrives with < > & as entities,
	// so "<b>" and "<https://evil.test|click>" are text, not markup.
	if strings.Contains(first.Body, "<") || !strings.Contains(first.Body, "&lt;!channel&gt;") || !strings.Contains(first.Body, "&amp;amp;") {
		t.Errorf("body not markup-escaped: %q", first.Body)
	}
	if u, ok := first.Hints["urgency"].Value().(byte); !ok || u != 2 {
		t.Errorf("urgency hint %v, want critical (2)", first.Hints["urgency"])
	}
	// One burst, one call.
	time.Sleep(300 * time.Millisecond)
	if n := len(srv.Calls()); n != 1 {
		t.Fatalf("%d calls for one burst", n)
	}
	// The next burst replaces it.
	d.Send(opened(finding("next", "MUTATION", "medium", "files-local")))
	second := srv.WaitCalls(t, 2, 10*time.Second)[1]
	if second.ReplacesID != first.ID || second.ID != first.ID {
		t.Errorf("second call %v does not replace notification %d", second, first.ID)
	}
	if second.Summary != "MUTATION in files-local" {
		t.Errorf("second summary %q", second.Summary)
	}
	if len(reps.all()) != 0 {
		t.Errorf("reports: %+v", reps.all())
	}
}

func TestDBusServerWithoutMarkupGetsPlainText(t *testing.T) {
	bus := notifytest.StartBus(t)
	srv := bus.NewServer(t, notifytest.ServerOptions{Capabilities: []string{"body"}})
	d, _ := dbusDesktop(t, bus.Address, nil)
	f := finding("a", "MUTATION", "high", "s")
	f.Summary = "a < b & c"
	d.Send(opened(f))
	if c := srv.WaitCalls(t, 1, 10*time.Second)[0]; !strings.Contains(c.Body, "a < b & c") {
		t.Errorf("body %q", c.Body)
	}
}

func TestDBusServerThatNeverAnswersDoesNotStall(t *testing.T) {
	bus := notifytest.StartBus(t)
	bus.NewServer(t, notifytest.ServerOptions{Hang: true})
	d, reps := dbusDesktop(t, bus.Address, nil)
	start := time.Now()
	for i := 0; i < 500; i++ {
		d.Send(opened(finding(fmt.Sprint(i), "MUTATION", "high", "s")))
	}
	if took := time.Since(start); took > 200*time.Millisecond {
		t.Errorf("500 Sends took %v with a server that never answers", took)
	}
	ev := reps.wait(t, "the notification server did not answer")
	if ev.Action != ActionNotifyDegraded {
		t.Errorf("report %+v", ev)
	}
	start = time.Now()
	d.Close()
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Close took %v", took)
	}
}

func TestDBusNoNotificationServerIsReported(t *testing.T) {
	bus := notifytest.StartBus(t)
	d, reps := dbusDesktop(t, bus.Address, nil)
	d.Send(opened(finding("a", "MUTATION", "high", "s")))
	reps.wait(t, "no notification server (org.freedesktop.Notifications) on the session bus")
}

func TestDBusWithoutASessionBusSaysSoOnceAndLaunchesNothing(t *testing.T) {
	for _, addr := range []string{"", "autolaunch:", "launchd:env=DBUS_LAUNCHD_SESSION_BUS_SOCKET", "unixexec:path=/bin/sh"} {
		t.Run(addr, func(t *testing.T) {
			d, reps := dbusDesktop(t, addr, nil)
			for i := 0; i < 3; i++ {
				d.Send(opened(finding(fmt.Sprint(i), "MUTATION", "high", "s")))
			}
			ev := reps.wait(t, "desktop notifications unavailable")
			time.Sleep(300 * time.Millisecond)
			if n := len(reps.all()); n != 1 {
				t.Errorf("%d reports, want 1: %+v", n, reps.all())
			}
			if ev.Level != "warn" || ev.Action != ActionNotifyDegraded {
				t.Errorf("report %+v", ev)
			}
		})
	}
}

// A bus that accepts the connection and then never speaks: connecting
// gives up at the timeout.
func TestDBusBusThatNeverAnswersTimesOut(t *testing.T) {
	dir := t.TempDir()
	ln, path := listenUnix(t, dir)
	defer ln.Close()
	d, reps := dbusDesktop(t, "unix:path="+path, nil)
	d.Send(opened(finding("a", "MUTATION", "high", "s")))
	reps.wait(t, "did not answer")
}

// Issue 12 item 18: the capabilities are those of the server that owns
// the name now. A markup-capable server that takes the name from a plain
// one receives escaped markup, not the raw text the plain one was sent.
func TestDBusServerThatTakesTheNameIsAskedForItsCapabilities(t *testing.T) {
	bus := notifytest.StartBus(t)
	plain := bus.NewServer(t, notifytest.ServerOptions{Capabilities: []string{"body"}, Replaceable: true})
	d, _ := dbusDesktop(t, bus.Address, nil)
	f := finding("a", "MUTATION", "high", "s")
	f.Summary = "a <b>bold</b> & c"
	d.Send(opened(f))
	if c := plain.WaitCalls(t, 1, 10*time.Second)[0]; !strings.Contains(c.Body, "a <b>bold</b> & c") {
		t.Fatalf("plain server body %q, want the text as it is", c.Body)
	}
	marked := bus.NewServer(t, notifytest.ServerOptions{TakeOver: true}) // reads body markup
	g := finding("b", "MUTATION", "high", "s")
	g.Summary = "x <i>it</i> & y"
	d.Send(opened(g))
	c := marked.WaitCalls(t, 1, 10*time.Second)[0]
	if strings.Contains(c.Body, "<i>") || !strings.Contains(c.Body, "x &lt;i&gt;it&lt;/i&gt; &amp; y") {
		t.Errorf("markup server body %q, want escaped markup", c.Body)
	}
	if c.ReplacesID != 0 {
		t.Errorf("replaces_id %d: the new server never issued it", c.ReplacesID)
	}
}
