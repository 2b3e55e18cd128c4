package notify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/descriptorpin/descriptorpin/engine"
)

// fakeNotifier records what the Desktop shows.
type fakeNotifier struct {
	mu       sync.Mutex
	shown    []Notification
	probeErr error
	showErr  error
	block    bool // show waits for its context
	closed   bool
}

func (f *fakeNotifier) target() string { return "fake" }
func (f *fakeNotifier) probe(context.Context) error {
	return f.probeErr
}
func (f *fakeNotifier) show(ctx context.Context, n Notification) (string, error) {
	f.mu.Lock()
	block, err := f.block, f.showErr
	f.mu.Unlock()
	if block {
		<-ctx.Done()
		return "", ctx.Err()
	}
	if err != nil {
		return "", err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.shown = append(f.shown, n)
	return fmt.Sprintf("notification %d", len(f.shown)), nil
}
func (f *fakeNotifier) close() error {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	return nil
}
func (f *fakeNotifier) all() []Notification {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Notification(nil), f.shown...)
}
func (f *fakeNotifier) set(block bool, err error) {
	f.mu.Lock()
	f.block, f.showErr = block, err
	f.mu.Unlock()
}

func (f *fakeNotifier) wait(t *testing.T, n int) []Notification {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if s := f.all(); len(s) >= n {
			return s
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%d notifications shown, want %d: %+v", len(f.all()), n, f.all())
	return nil
}

func newTestDesktop(t *testing.T, be notifier, mod func(*DesktopOptions)) (*Desktop, *reports) {
	t.Helper()
	reps := &reports{}
	opt := DesktopOptions{Window: 100 * time.Millisecond, Timeout: 300 * time.Millisecond, Report: reps.add, backend: be}
	if mod != nil {
		mod(&opt)
	}
	d := NewDesktop(opt)
	d.Start()
	t.Cleanup(func() { d.Close() })
	return d, reps
}

func TestDesktopCoalescesABurstIntoOneNotification(t *testing.T) {
	fake := &fakeNotifier{}
	d, reps := newTestDesktop(t, fake, nil)
	for i := 0; i < 28; i++ {
		d.Send(opened(finding(fmt.Sprint("m", i), "MUTATION", "high", "files-local")))
	}
	d.Send(opened(finding("a1", "ADDED", "medium", "files-local")))
	d.Send(opened(finding("a2", "ADDED", "medium", "files-local")))
	d.Send(resolved(finding("r1", "REMOVED", "medium", "files-local")))
	fake.wait(t, 1)
	time.Sleep(300 * time.Millisecond)
	shown := fake.all()
	if len(shown) != 1 {
		t.Fatalf("%d notifications for one burst, want 1: %+v", len(shown), shown)
	}
	n := shown[0]
	if n.Summary != "30 findings in files-local" {
		t.Errorf("summary %q", n.Summary)
	}
	lines := strings.Split(n.Body, "\n")
	if len(lines) != 8 || lines[0] != "28 MUTATION, 2 ADDED" || !strings.HasPrefix(lines[1], "[high] MUTATION files-local/read_file") ||
		lines[6] != "… and 25 more (descriptorpin status)" || lines[7] != "1 finding resolved" {
		t.Errorf("body:\n%s", n.Body)
	}
	if !n.Urgent {
		t.Error("a burst with high findings is not urgent")
	}
	// The next burst is its own notification.
	d.Send(opened(finding("x", "POISON", "medium", "notes")))
	d.Send(opened(finding("y", "SHADOW", "medium", "calendar")))
	shown = fake.wait(t, 2)
	if shown[1].Summary != "2 findings on 2 servers" || !strings.HasPrefix(shown[1].Body, "1 POISON, 1 SHADOW\n") || shown[1].Urgent {
		t.Errorf("second burst %+v", shown[1])
	}
	d.Send(opened(finding("z", "TRANSPORT", "medium", "one")))
	if shown = fake.wait(t, 3); shown[2].Summary != "TRANSPORT in one" {
		t.Errorf("one finding: %q", shown[2].Summary)
	}
	if len(reps.all()) != 0 {
		t.Errorf("reports: %+v", reps.all())
	}
}

func TestDesktopNeverShowsResolutionsAloneOrFilteredFindings(t *testing.T) {
	fake := &fakeNotifier{}
	d, _ := newTestDesktop(t, fake, func(o *DesktopOptions) { o.MinSeverity = engine.High })
	d.Send(resolved(finding("r", "MUTATION", "high", "s")))                    // alone: would replace an unread alert
	d.Send(opened(finding("low", "REMOVED", "medium", "s")))                   // below high
	d.Send(engine.Event{Action: engine.ActionWatchDegraded, Message: "limit"}) // health counts as medium
	d.Send(engine.Event{Action: engine.ActionPinChanged, Message: "pin"})
	time.Sleep(400 * time.Millisecond)
	if s := fake.all(); len(s) != 0 {
		t.Errorf("shown %+v", s)
	}
}

func TestDesktopShowsHealthEvents(t *testing.T) {
	fake := &fakeNotifier{}
	d, _ := newTestDesktop(t, fake, nil)
	d.Send(engine.Event{Action: engine.ActionWatchDegraded, Message: "watch degraded, relying on periodic rescans: too many open files", File: "/x"})
	n := fake.wait(t, 1)[0]
	if n.Summary != "DescriptorPin: file watching degraded" || !strings.Contains(n.Body, "too many open files") {
		t.Errorf("%+v", n)
	}
}

func TestDesktopTextIsSanitisedAndBounded(t *testing.T) {
	fake := &fakeNotifier{}
	d, _ := newTestDesktop(t, fake, nil)
	for i := 0; i < 3; i++ {
		f := hostileFinding()
		f.ID = fmt.Sprint(i)
		f.Server = hostile + strings.Repeat("S", 500)
		f.Summary = hostile + strings.Repeat("y", 5000)
		d.Send(opened(f))
	}
	n := fake.wait(t, 1)[0]
	for name, s := range map[string]string{"summary": n.Summary, "body": n.Body} {
		for _, raw := range []string{"\x1b", "\u202e", "\u200b", "\r", "\U000E0041"} {
			if strings.Contains(s, raw) {
				t.Errorf("%s holds the raw %q: %q", name, raw, s)
			}
		}
		if !utf8.ValidString(s) {
			t.Errorf("%s is not valid UTF-8", name)
		}
	}
	if strings.Contains(n.Summary, "\n") {
		t.Errorf("summary spans lines: %q", n.Summary)
	}
	if c := utf8.RuneCountInString(n.Summary); c > maxSummaryRunes {
		t.Errorf("summary is %d runes", c)
	}
	if c := utf8.RuneCountInString(n.Body); c > maxBodyRunes {
		t.Errorf("body is %d runes", c)
	}
	for _, line := range strings.Split(n.Body, "\n") {
		if c := utf8.RuneCountInString(line); c > maxLineRunes {
			t.Errorf("a body line is %d runes", c)
		}
	}
	if !strings.Contains(n.Body, `\x1b[2J\u202eexe.txt`) {
		t.Errorf("escapes not shown: %q", n.Body)
	}
}

func TestDesktopUnavailableIsSaidOnce(t *testing.T) {
	fake := &fakeNotifier{probeErr: fmt.Errorf("%w: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)", errUnavailable)}
	fake.showErr = fake.probeErr
	d, reps := newTestDesktop(t, fake, nil)
	for i := 0; i < 3; i++ {
		d.Send(opened(finding(fmt.Sprint(i), "MUTATION", "high", "s")))
		time.Sleep(150 * time.Millisecond)
	}
	ev := reps.wait(t, "no D-Bus session bus")
	time.Sleep(200 * time.Millisecond)
	if n := len(reps.all()); n != 1 {
		t.Errorf("%d reports, want 1: %+v", n, reps.all())
	}
	if ev.Action != ActionNotifyDegraded || ev.Level != "warn" {
		t.Errorf("report %+v", ev)
	}
	if d.Dropped() != 3 {
		t.Errorf("dropped %d, want 3", d.Dropped())
	}
}

func TestDesktopFailureIsReportedOnceThenRecovery(t *testing.T) {
	fake := &fakeNotifier{}
	fake.set(false, errors.New("server error"))
	d, reps := newTestDesktop(t, fake, nil)
	d.Send(opened(finding("a", "MUTATION", "high", "s")))
	reps.wait(t, "desktop notification failed")
	d.Send(opened(finding("b", "MUTATION", "high", "s")))
	time.Sleep(250 * time.Millisecond)
	fake.set(false, nil)
	d.Send(opened(finding("c", "MUTATION", "high", "s")))
	reps.wait(t, "shown again")
	if all := reps.all(); len(all) != 2 || all[0].Action != ActionNotifyDegraded || all[1].Action != ActionNotifyRecovered {
		t.Errorf("reports %+v", all)
	}
}

func TestDesktopHangingServiceNeverBlocksSendOrClose(t *testing.T) {
	fake := &fakeNotifier{block: true}
	d, reps := newTestDesktop(t, fake, func(o *DesktopOptions) { o.QueueSize = 8 })
	start := time.Now()
	for i := 0; i < 1000; i++ {
		d.Send(opened(finding(fmt.Sprint(i), "MUTATION", "high", "s")))
	}
	if took := time.Since(start); took > 200*time.Millisecond {
		t.Errorf("1000 Sends took %v with a hanging service", took)
	}
	reps.wait(t, "context deadline exceeded")
	if d.Dropped() == 0 {
		t.Error("nothing dropped with a full queue")
	}
	start = time.Now()
	d.Close()
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Close took %v", took)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if !fake.closed {
		t.Error("the backend was not closed")
	}
}

func TestDesktopCloseShowsThePendingBurst(t *testing.T) {
	fake := &fakeNotifier{}
	d, _ := newTestDesktop(t, fake, func(o *DesktopOptions) { o.Window = time.Hour })
	d.Send(opened(finding("a", "MUTATION", "high", "s")))
	time.Sleep(50 * time.Millisecond)
	d.Close()
	if s := fake.all(); len(s) != 1 {
		t.Errorf("%d shown at Close, want the pending one", len(s))
	}
}

func TestOsascriptAndToastTakeTextAsData(t *testing.T) {
	n := Notification{Summary: `"; do shell script "touch /tmp/pwned" --`, Body: "$(Remove-Item C:\\) `whoami` '; exit"}
	args := osascriptArgs("DescriptorPin", n)
	script := strings.Join(args[:6], " ")
	if strings.Contains(script, "pwned") || args[6] != "DescriptorPin" || args[7] != n.Summary || args[8] != n.Body {
		t.Errorf("osascript args %q", args)
	}
	for _, a := range toastArgs() {
		if strings.Contains(a, "Remove-Item") || strings.Contains(a, "pwned") {
			t.Errorf("toast argument carries text: %q", a)
		}
	}
	env := strings.Join(toastEnv("DescriptorPin", n), "\n")
	if !strings.Contains(env, "DESCRIPTORPIN_TOAST_BODY="+n.Body) {
		t.Errorf("toast env %q", env)
	}
	// -EncodedCommand is base64 of UTF-16LE.
	if got := encodePowerShell("ab"); got != "YQBiAA==" {
		t.Errorf("encodePowerShell(ab) = %q", got)
	}
}

// The macOS and Windows backends, run on any Unix with stand-ins for
// osascript and powershell.exe that record how they were called.
func TestExecBackendsRunTheProgramWithTextAsData(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-ins are shell scripts")
	}
	dir := t.TempDir()
	record := filepath.Join(dir, "record")
	script := "#!/bin/sh\n{ for a in \"$@\"; do printf '%s\\n' \"ARG $a\"; done; env | grep '^DESCRIPTORPIN_TOAST_' | sort; } > " + record + "\n"
	for _, name := range []string{"osascript", "powershell.exe"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	n := Notification{Summary: `1 new finding in x: POISON"; do shell script "id`, Body: "line $(whoami)", Urgent: true}
	ctx := context.Background()

	mac := osascriptNotifier("DescriptorPin")
	if err := mac.probe(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := mac.show(ctx, n); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(record)
	want := "ARG -e\nARG on run argv\nARG -e\nARG display notification (item 3 of argv) with title (item 1 of argv) subtitle (item 2 of argv)\nARG -e\nARG end run\nARG DescriptorPin\nARG " + n.Summary + "\nARG " + n.Body + "\n"
	if string(got) != want {
		t.Errorf("osascript called as:\n%s\nwant:\n%s", got, want)
	}

	win := toastNotifier("DescriptorPin")
	if _, err := win.show(ctx, n); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(record)
	for _, line := range []string{
		"ARG -NoProfile", "ARG -EncodedCommand", "DESCRIPTORPIN_TOAST_TITLE=" + n.Summary,
		"DESCRIPTORPIN_TOAST_BODY=" + n.Body, "DESCRIPTORPIN_TOAST_URGENT=1", "DESCRIPTORPIN_TOAST_APP=DescriptorPin",
	} {
		if !strings.Contains(string(got), line+"\n") {
			t.Errorf("powershell call lacks %q:\n%s", line, got)
		}
	}
	if strings.Contains(strings.SplitN(string(got), "DESCRIPTORPIN_TOAST_", 2)[0], "whoami") {
		t.Errorf("the text reached PowerShell's arguments:\n%s", got)
	}

	// A program that fails, and one that hangs, are errors, not stalls.
	os.WriteFile(filepath.Join(dir, "osascript"), []byte("#!/bin/sh\necho 'execution error: not allowed' >&2\nexit 1\n"), 0o755)
	if _, err := mac.show(ctx, n); err == nil || !strings.Contains(err.Error(), "not allowed") {
		t.Errorf("failing osascript: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "osascript"), []byte("#!/bin/sh\nexec sleep 30\n"), 0o755)
	tctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := mac.show(tctx, n); err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("hanging osascript: %v after %v", err, time.Since(start))
	}
	os.Remove(filepath.Join(dir, "osascript"))
	if _, real := exec.LookPath("osascript"); real != nil && !errors.Is(mac.probe(ctx), errUnavailable) {
		t.Errorf("probe without osascript is not errUnavailable")
	}
}

func TestDesktopSaysHowManyEventsAFullQueueDropped(t *testing.T) {
	fake := &fakeNotifier{block: true}
	d, reps := newTestDesktop(t, fake, func(o *DesktopOptions) { o.QueueSize = 4 })
	d.Send(opened(finding("first", "MUTATION", "high", "s")))
	time.Sleep(200 * time.Millisecond) // the goroutine is now stuck in show
	for i := 0; i < 100; i++ {
		d.Send(opened(finding(fmt.Sprint(i), "MUTATION", "high", "s")))
	}
	fake.set(false, nil)
	reps.wait(t, "desktop notification failed") // the stuck call timed out
	n := fake.wait(t, 1)[0]
	if n.Summary != "4 findings in s" || !strings.HasSuffix(n.Body, "… and 96 more events too fast to count (see the event log)") {
		t.Errorf("%q\n%s", n.Summary, n.Body)
	}
}

func TestDesktopSummaryIsShortPlainText(t *testing.T) {
	for _, tc := range []struct {
		servers map[string]int
		opened  int
		want    string
	}{
		{map[string]int{"files-local": 1}, 1, "MUTATION in files-local"},
		{map[string]int{"<b>notes</b>": 3}, 3, "3 findings in bnotes/b"},
		{map[string]int{"a-server-with-a-very-long-name-indeed-and-more": 2}, 2, "2 findings in a-server-with-a-very-long…"},
		{map[string]int{"a": 1, "b": 1, "c": 1}, 3, "3 findings on 3 servers"},
	} {
		got := openedSummary(tc.opened, tc.servers, "MUTATION")
		if got != tc.want {
			t.Errorf("openedSummary(%d, %v) = %q, want %q", tc.opened, tc.servers, got, tc.want)
		}
		if n := utf8.RuneCountInString(got); n > maxSummaryRunes {
			t.Errorf("%q: %d runes, want at most %d", got, n, maxSummaryRunes)
		}
	}
}
