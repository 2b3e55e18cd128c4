package notify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/english"
)

// Desktop notification defaults.
const (
	DefaultDesktopWindow  = 500 * time.Millisecond
	DefaultDesktopTimeout = 5 * time.Second
	DefaultDesktopQueue   = 1024
)

// Bounds of a desktop notification's text, in runes.
const (
	// The freedesktop notification spec asks for a summary of about 40
	// characters; the rest goes in the body.
	maxSummaryRunes = 40
	maxLineRunes    = 200
	maxBodyRunes    = 1000
	maxBodyFindings = 5
)

// errUnavailable marks a desktop that can never show a notification in
// this process (no session bus, no osascript, no PowerShell): it is said
// once and the sink goes quiet.
var errUnavailable = errors.New("desktop notifications unavailable")

// Notification is what a desktop backend shows: plain text only. The
// backend escapes it for its own format (XML entities for a freedesktop
// server that reads body markup, arguments for osascript, a text node for
// a Windows toast).
type Notification struct {
	Summary string // one line
	Body    string // lines separated by "\n"
	Urgent  bool   // a high or critical finding
}

// notifier is one platform's way of showing a notification. Only the
// Desktop's goroutine (or Test) calls it, one call at a time.
type notifier interface {
	// probe checks that notifications can be shown; an error wrapping
	// errUnavailable means never in this process.
	probe(ctx context.Context) error
	// show shows n, replacing the previous notification where the
	// platform can, and describes what it did ("notification 7").
	show(ctx context.Context, n Notification) (string, error)
	close() error
	target() string
}

// DesktopOptions configures a Desktop.
type DesktopOptions struct {
	// MinSeverity filters the events (see Accepts); the zero value is medium.
	MinSeverity engine.Severity
	// Window is how long events are collected after the first one of a
	// burst before one notification is shown for all of them; 0 is 500ms.
	Window time.Duration
	// Timeout bounds each call to the notification service (connecting
	// included); 0 is 5s.
	Timeout time.Duration
	// QueueSize bounds the events waiting for the goroutine; past it, Send
	// drops (and counts) them, and the next notification says how many
	// it could not count. 0 is 1024.
	QueueSize int
	// AppName is the application name shown (""= "DescriptorPin").
	AppName string
	// Getenv reads DBUS_SESSION_BUS_ADDRESS (nil: os.Getenv).
	Getenv func(string) string
	// Report receives the events the sink emits about itself (no session
	// bus, a server that fails or does not answer, recovery); nil drops
	// them. Called from the sink's goroutine; must not call back into it.
	Report func(engine.Event)
	// Now is the clock (nil: time.Now).
	Now func() time.Time

	backend notifier // tests
}

// Desktop shows findings as desktop notifications: on Linux and the BSDs
// through the freedesktop notification service on the user's D-Bus
// session bus, on macOS through osascript (Notification Center), on
// Windows as a toast shown by PowerShell.
//
// Send only queues (bounded; it drops rather than waits). A goroutine
// coalesces bursts: the events that arrive within Window of the first one
// become one notification ("30 new findings in files-local: 28 MUTATION,
// 2 ADDED"), which replaces the previous one instead of stacking where
// the platform allows (freedesktop replaces_id, toast tag). Resolutions
// are never shown on their own, so they cannot replace an unread alert;
// they are counted in the body of a burst that also opens findings.
// Every text from a descriptor is escaped (no control, bidi or invisible
// characters, no markup) and bounded.
type Desktop struct {
	opt DesktopOptions
	be  notifier
	in  chan engine.Event

	mu sync.Mutex // serialises backend calls (the goroutine and Test)

	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}
	started bool
	once    sync.Once

	// Only the goroutine touches these.
	unavailable bool
	failing     bool

	dropped  atomic.Uint64
	overflow atomic.Uint64 // dropped by a full queue since the last notification
}

// NewDesktop returns the desktop sink of this platform, not started.
func NewDesktop(opt DesktopOptions) *Desktop {
	if opt.Window <= 0 {
		opt.Window = DefaultDesktopWindow
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultDesktopTimeout
	}
	if opt.QueueSize <= 0 {
		opt.QueueSize = DefaultDesktopQueue
	}
	if opt.AppName == "" {
		opt.AppName = "DescriptorPin"
	}
	if opt.Getenv == nil {
		opt.Getenv = os.Getenv
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	be := opt.backend
	if be == nil {
		be = platformNotifier(opt)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Desktop{opt: opt, be: be, in: make(chan engine.Event, opt.QueueSize), ctx: ctx, cancel: cancel, done: make(chan struct{})}
}

// Name implements Sink.
func (d *Desktop) Name() string { return "desktop" }

// Target describes the notification service used.
func (d *Desktop) Target() string { return d.be.target() }

// Start starts the goroutine. It checks at once that notifications can be
// shown (on Linux: connects to the session bus) and reports it once if
// they cannot.
func (d *Desktop) Start() {
	d.started = true
	go d.run()
}

// Send implements Sink: it queues ev if the filter accepts it, and drops
// it when the queue is full.
func (d *Desktop) Send(ev engine.Event) {
	if !Accepts(ev, d.opt.MinSeverity) {
		return
	}
	select {
	case d.in <- ev:
	default:
		d.dropped.Add(1)
		d.overflow.Add(1)
	}
}

// Dropped reports how many events were not shown because the queue was
// full or notifications are unavailable.
func (d *Desktop) Dropped() uint64 { return d.dropped.Load() }

// Close shows what is pending (within a second, unless the service has
// been failing), then closes the connection. A call in flight is
// abandoned.
func (d *Desktop) Close() error {
	d.once.Do(func() {
		d.cancel()
		if d.started {
			<-d.done
		} else {
			d.mu.Lock()
			_ = d.be.close()
			d.mu.Unlock()
		}
	})
	return nil
}

// Test shows one test notification now (no coalescing) and says what
// happened.
func (d *Desktop) Test(ctx context.Context) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, d.opt.Timeout)
	defer cancel()
	return d.be.show(ctx, Notification{
		Summary: "DescriptorPin test notification",
		Body:    "Desktop notifications work: new findings will be shown like this.",
	})
}

func (d *Desktop) run() {
	defer close(d.done)
	ctx, cancel := context.WithTimeout(d.ctx, d.opt.Timeout)
	err := d.call(func() error { return d.be.probe(ctx) })
	cancel()
	if err != nil && d.ctx.Err() == nil {
		d.failed(err)
	}
	var b burst
	var fire <-chan time.Time
	for {
		select {
		case ev := <-d.in:
			b.add(ev)
			if fire == nil {
				fire = time.After(d.opt.Window)
			}
		case <-fire:
			fire = nil
			d.flush(d.ctx, &b)
		case <-d.ctx.Done():
			for drained := false; !drained; {
				select {
				case ev := <-d.in:
					b.add(ev)
				default:
					drained = true
				}
			}
			if !d.failing {
				ctx, cancel := context.WithTimeout(context.Background(), min(d.opt.Timeout, time.Second))
				d.flush(ctx, &b)
				cancel()
			}
			d.mu.Lock()
			_ = d.be.close()
			d.mu.Unlock()
			return
		}
	}
}

func (d *Desktop) call(f func() error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return f()
}

// flush shows the burst, if it makes a notification, and empties it.
func (d *Desktop) flush(parent context.Context, b *burst) {
	b.missed = int(d.overflow.Swap(0))
	n, ok := b.notification()
	events := b.events
	*b = burst{}
	if !ok {
		return
	}
	if d.unavailable {
		d.dropped.Add(uint64(events))
		return
	}
	ctx, cancel := context.WithTimeout(parent, d.opt.Timeout)
	defer cancel()
	err := d.call(func() error { _, err := d.be.show(ctx, n); return err })
	switch {
	case err != nil && parent.Err() != nil:
		// Closing: abandoned.
	case err != nil:
		d.dropped.Add(uint64(events))
		d.failed(err)
	case d.failing:
		d.failing = false
		d.report(ActionNotifyRecovered, "info", "desktop notifications are shown again", "")
	}
}

// failed reports a failure once per failing spell, or once for good when
// notifications are unavailable.
func (d *Desktop) failed(err error) {
	if errors.Is(err, errUnavailable) {
		if !d.unavailable {
			d.unavailable = true
			reason := strings.TrimPrefix(err.Error(), errUnavailable.Error()+": ")
			d.report(ActionNotifyDegraded, "warn", "desktop notifications unavailable, continuing without them: "+sanitize.Text(reason), err.Error())
		}
		return
	}
	if !d.failing {
		d.failing = true
		d.report(ActionNotifyDegraded, "warn", "desktop notification failed, will try again with the next one: "+sanitize.Text(err.Error()), err.Error())
	}
}

func (d *Desktop) report(action, level, msg, errText string) {
	if d.opt.Report == nil {
		return
	}
	d.opt.Report(engine.Event{Time: d.opt.Now(), Action: action, Level: level, Message: msg, Error: sanitize.Text(errText)})
}

// --- coalescing ---

// burst collects the events of one coalescing window, keeping counts and
// the first few lines rather than every event.
type burst struct {
	events   int
	opened   int
	classes  map[string]int
	servers  map[string]int
	lines    []string
	urgent   bool
	resolved int
	degraded bool
	health   []string
	healthN  int
	missed   int // events the full queue dropped
}

func (b *burst) add(ev engine.Event) {
	b.events++
	switch ev.Action {
	case engine.ActionFindingOpened:
		f := ev.Finding
		if f == nil {
			return
		}
		b.opened++
		if b.classes == nil {
			b.classes, b.servers = map[string]int{}, map[string]int{}
		}
		b.classes[oneLine(string(f.Class), 30)]++
		where := f.Server
		if where == "" && ev.File != "" {
			where = filepath.Base(ev.File)
		}
		if where == "" {
			where = "an unnamed server"
		}
		b.servers[oneLine(where, 60)]++
		if f.Severity >= engine.High {
			b.urgent = true
		}
		if len(b.lines) < maxBodyFindings {
			b.lines = append(b.lines, oneLine(fmt.Sprintf("[%s] %s", f.Severity, f.Summary), maxLineRunes))
		}
	case engine.ActionFindingResolved:
		b.resolved++
	case engine.ActionWatchDegraded, engine.ActionWatchRecovered:
		b.healthN++
		if ev.Action == engine.ActionWatchDegraded {
			b.degraded = true
		}
		if len(b.health) < 3 {
			b.health = append(b.health, oneLine(ev.Message, maxLineRunes))
		}
	}
}

// notification is what the burst shows; ok is false when there is
// nothing to show (no events, or only resolutions).
func (b *burst) notification() (n Notification, ok bool) {
	var body []string
	switch {
	case b.opened > 0:
		n.Summary = openedSummary(b.opened, b.servers, classList(b.classes, b.opened))
		if b.opened > 1 {
			body = append(body, classList(b.classes, b.opened))
		}
		body = append(body, b.lines...)
		if more := b.opened - len(b.lines); more > 0 {
			body = append(body, fmt.Sprintf("… and %d more (descriptorpin status)", more))
		}
		if b.resolved > 0 {
			body = append(body, fmt.Sprintf("%d %s resolved", b.resolved, english.Plural(b.resolved, "finding", "findings")))
		}
		n.Urgent = b.urgent
	case b.healthN > 0:
		n.Summary = "DescriptorPin: file watching recovered"
		if b.degraded {
			n.Summary = "DescriptorPin: file watching degraded"
		}
	default:
		return n, false
	}
	body = append(body, b.health...)
	if more := b.healthN - len(b.health); more > 0 {
		body = append(body, fmt.Sprintf("… and %d more watch %s", more, english.Plural(more, "change", "changes")))
	}
	if b.missed > 0 {
		body = append(body, fmt.Sprintf("… and %d more %s too fast to count (see the event log)", b.missed, english.Plural(b.missed, "event", "events")))
	}
	n.Summary = clip(n.Summary, maxSummaryRunes)
	n.Body = clip(strings.Join(body, "\n"), maxBodyRunes)
	return n, true
}

// openedSummary is the short summary of a burst of new findings: "MUTATION
// in files-local" for one, "30 findings in files-local" for one server,
// "5 findings on 3 servers" otherwise; the class counts go in the body.
// The server name is made plain text and shortened to keep the summary
// about 40 characters.
func openedSummary(opened int, servers map[string]int, classes string) string {
	var name string
	for s := range servers {
		name = s
	}
	if len(servers) > 1 {
		return fmt.Sprintf("%d findings on %d servers", opened, len(servers))
	}
	head := fmt.Sprintf("%d findings in ", opened)
	if opened == 1 {
		head = classes + " in "
	}
	room := maxSummaryRunes - utf8.RuneCountInString(head)
	if room < 8 {
		room = 8
	}
	return head + clip(plainSummary(name), room)
}

// plainSummary keeps markup out of a summary: the freedesktop spec makes
// the summary plain text, yet some servers render markup there, so a
// server named "<b>notes</b>" must not reach it as a tag. '<', '>' and
// '&' are dropped; the body, escaped for the server, shows the name as it
// is.
func plainSummary(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '<', '>', '&':
			return -1
		}
		return r
	}, s)
}

// classList is "28 MUTATION, 2 ADDED": most frequent first, then by name;
// one finding is just its class.
func classList(classes map[string]int, total int) string {
	names := make([]string, 0, len(classes))
	for c := range classes {
		names = append(names, c)
	}
	sort.Slice(names, func(i, j int) bool {
		if classes[names[i]] != classes[names[j]] {
			return classes[names[i]] > classes[names[j]]
		}
		return names[i] < names[j]
	})
	if total == 1 && len(names) == 1 {
		return names[0]
	}
	parts := make([]string, len(names))
	for i, c := range names {
		parts[i] = fmt.Sprintf("%d %s", classes[c], c)
	}
	return strings.Join(parts, ", ")
}
