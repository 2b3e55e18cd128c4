package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/redact"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/english"
)

// Webhook retry defaults.
const (
	DefaultWebhookTimeout = 10 * time.Second
	DefaultBackoffBase    = time.Second
	DefaultBackoffMax     = 10 * time.Minute
	DefaultMaxRetryAfter  = time.Hour
)

// WebhookOptions configures a Webhook.
type WebhookOptions struct {
	// Name identifies the webhook in events ("" = unnamed).
	Name string
	// URL is the endpoint (http or https). It is never logged or shown:
	// events and output name scheme://host only.
	URL string
	// Format is FormatStandard (""), FormatSlack or FormatTeams.
	Format string
	// Secret is the Standard Webhooks secret ("whsec_" + base64). When
	// set, every attempt is signed (webhook-signature), whatever the
	// format; "" sends unsigned deliveries.
	Secret string
	// MinSeverity filters the events (see Accepts); the zero value is medium.
	MinSeverity engine.Severity
	// Timeout bounds one attempt, connection to last byte; 0 is 10s.
	Timeout time.Duration
	// SpoolDir is the endpoint's own spool directory (see SpoolName);
	// required by Start.
	SpoolDir string
	// MaxFiles and MaxBytes cap the spool (0: DefaultSpoolMaxFiles,
	// DefaultSpoolMaxBytes); past them the least severe deliveries are
	// dropped, the oldest of them first.
	MaxFiles int
	MaxBytes int64
	// BackoffBase and BackoffMax shape the retry delay after n failures in
	// a row: a random duration in [0, min(BackoffMax, BackoffBase·2^(n-1))]
	// ("full jitter"). 0 means 1s and 10m.
	BackoffBase, BackoffMax time.Duration
	// MaxRetryAfter caps how long a Retry-After header can park the
	// endpoint; 0 is 1h.
	MaxRetryAfter time.Duration
	// Host is the host name put in each delivery's data; Version goes in
	// the User-Agent.
	Host, Version string
	// Report receives the events the webhook emits about itself
	// (ActionNotifyDegraded, ActionNotifyRecovered); nil drops them. It is
	// called from the webhook's goroutine and from Send, and must not call
	// back into this webhook.
	Report func(engine.Event)
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Webhook is a durable, signed webhook sink.
//
// Send spools the delivery to disk (write, fsync, rename) before it
// returns: that is the only work it does on the caller's goroutine, a
// local write like the event log's. A worker goroutine delivers the spool
// oldest first: one attempt at a time, each bounded by Timeout, redirects
// never followed. It retries after 5xx, 408, 429, 3xx and network errors
// with exponential backoff and full jitter, waiting what a Retry-After
// header asks instead (up to MaxRetryAfter); it drops a delivery that
// gets any other 4xx (with an event); and on 410 Gone it stops delivering
// to this endpoint until the next start (with an event) but keeps
// spooling: what happens while the endpoint is gone is delivered after
// the next start (a 410 is as often a receiver being redeployed or
// reconfigured as one retired, and a finding dropped then is lost for
// good), within the spool's caps. A delivery spooled and not yet delivered when the process stops
// or is killed is delivered after the next Start: at least once, with the
// same webhook-id, so the receiver can deduplicate.
type Webhook struct {
	opt    WebhookOptions
	key    []byte // nil: unsigned
	label  string // "webhook soc (https://hooks.example)"
	client *http.Client

	spool  *spool
	wake   chan struct{}
	cancel context.CancelFunc
	done   chan struct{}

	gone         atomic.Bool
	spoolFailing atomic.Bool
	lost         atomic.Uint64 // deliveries never spooled (spool error)
	closeOnce    sync.Once
}

// NewWebhook checks opt and returns a webhook that is not started: Test
// works at once; Send needs Start.
func NewWebhook(opt WebhookOptions) (*Webhook, error) {
	u, err := url.Parse(opt.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("webhook %s: the URL must be an absolute http or https URL", redact.Endpoint(opt.URL))
	}
	switch opt.Format {
	case "":
		opt.Format = FormatStandard
	case FormatStandard, FormatSlack, FormatTeams:
	default:
		return nil, fmt.Errorf("webhook %s: unknown format %q: want standard, slack or teams", redact.Endpoint(opt.URL), sanitize.Text(opt.Format))
	}
	w := &Webhook{opt: opt, wake: make(chan struct{}, 1)}
	if opt.Secret != "" {
		if w.key, err = DecodeSecret(opt.Secret); err != nil {
			return nil, fmt.Errorf("webhook %s: %w", redact.Endpoint(opt.URL), err)
		}
	}
	if w.opt.Timeout <= 0 {
		w.opt.Timeout = DefaultWebhookTimeout
	}
	if w.opt.BackoffBase <= 0 {
		w.opt.BackoffBase = DefaultBackoffBase
	}
	if w.opt.BackoffMax <= 0 {
		w.opt.BackoffMax = DefaultBackoffMax
	}
	if w.opt.BackoffMax < w.opt.BackoffBase {
		w.opt.BackoffMax = w.opt.BackoffBase
	}
	if w.opt.MaxRetryAfter <= 0 {
		w.opt.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if w.opt.Now == nil {
		w.opt.Now = time.Now
	}
	w.label = "webhook " + redact.Endpoint(opt.URL)
	if opt.Name != "" {
		w.label = fmt.Sprintf("webhook %s (%s)", sanitize.Text(opt.Name), redact.Endpoint(opt.URL))
	}
	tr := http.DefaultTransport.(*http.Transport).Clone() // proxy from the environment, dial and TLS timeouts
	tr.MaxResponseHeaderBytes = 64 << 10
	w.client = &http.Client{
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a redirect is an answer, not a new URL to post to
		},
	}
	return w, nil
}

// Name implements Sink: "webhook" or "webhook NAME".
func (w *Webhook) Name() string {
	if w.opt.Name != "" {
		return "webhook " + sanitize.Text(w.opt.Name)
	}
	return "webhook"
}

// Target is what may be shown of the endpoint: scheme://host.
func (w *Webhook) Target() string { return redact.Endpoint(w.opt.URL) }

// Signed reports whether deliveries carry a webhook-signature.
func (w *Webhook) Signed() bool { return w.key != nil }

// Start opens the spool (creating it 0700) and starts the worker, which
// begins with whatever an earlier run left spooled.
func (w *Webhook) Start() error {
	if w.opt.SpoolDir == "" {
		return fmt.Errorf("%s: no spool directory", w.label)
	}
	sp, err := openSpool(w.opt.SpoolDir, w.opt.MaxFiles, w.opt.MaxBytes)
	if err != nil {
		return fmt.Errorf("%s: %w", w.label, err)
	}
	w.spool = sp
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel, w.done = cancel, make(chan struct{})
	go w.run(ctx)
	return nil
}

// Pending reports how many deliveries are spooled.
func (w *Webhook) Pending() int {
	if w.spool == nil {
		return 0
	}
	return w.spool.len()
}

// Gone reports whether the endpoint answered 410 Gone in this run:
// deliveries are spooled, not sent, until the next start.
func (w *Webhook) Gone() bool { return w.gone.Load() }

// Lost reports how many deliveries were never spooled because the spool
// could not be written. (A 410 Gone stops delivery, not spooling.)
func (w *Webhook) Lost() uint64 { return w.lost.Load() }

// Send implements Sink: it spools ev's delivery when the filter accepts
// it and wakes the worker. It never waits on the network.
func (w *Webhook) Send(ev engine.Event) {
	if w.spool == nil || !Accepts(ev, w.opt.MinSeverity) {
		return
	}
	m := NewMessage(ev, w.opt.Host)
	dropped, err := w.spool.add(m, w.opt.Now())
	if err != nil {
		w.lost.Add(1)
		if !w.spoolFailing.Swap(true) {
			w.report(ActionNotifyDegraded, "error", fmt.Sprintf("cannot spool deliveries, they are lost until the spool is writable again (%d lost so far)", w.lost.Load()), err.Error())
		}
		return
	}
	if w.spoolFailing.Swap(false) {
		w.report(ActionNotifyRecovered, "info", "spooling deliveries again", "")
	}
	if len(dropped) > 0 {
		w.report(ActionNotifyDegraded, "error", w.droppedText(dropped), "spool full")
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// droppedText says what the spool's caps pushed out: how many of each
// severity, and the first webhook-ids, most severe first (so a dropped
// high is never hidden behind a list of lows).
func (w *Webhook) droppedText(dropped []Dropped) string {
	bySev := map[engine.Severity]int{}
	for _, d := range dropped {
		bySev[d.Severity]++
	}
	var counts []string
	for i := len(engine.Severities) - 1; i >= 0; i-- {
		if n := bySev[engine.Severities[i]]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, engine.Severities[i]))
		}
	}
	shown := append([]Dropped(nil), dropped...)
	sort.SliceStable(shown, func(i, j int) bool { return shown[i].Severity > shown[j].Severity })
	more := ""
	if len(shown) > 5 {
		more = fmt.Sprintf(" and %d more", len(shown)-5)
		shown = shown[:5]
	}
	list := make([]string, len(shown))
	for i, d := range shown {
		list[i] = d.ID + " (" + d.Severity.String() + ")"
	}
	return fmt.Sprintf("spool full (cap %d deliveries, %d MB): dropped %d undelivered, the least severe first (%s): %s%s",
		w.spool.maxFiles, w.spool.maxBytes>>20, len(dropped), strings.Join(counts, ", "), strings.Join(list, ", "), more)
}

// Close stops the worker; an attempt in flight is abandoned and its
// delivery stays spooled for the next start. Send still spools after
// Close.
func (w *Webhook) Close() error {
	w.closeOnce.Do(func() {
		if w.cancel != nil {
			w.cancel()
			<-w.done
		}
	})
	return nil
}

// Test sends one test message (type notification.test, a fresh
// webhook-id) straight to the endpoint, without the spool or retries,
// and says what happened.
func (w *Webhook) Test(ctx context.Context) (string, error) {
	start := time.Now()
	res := w.attempt(ctx, TestMessage(w.opt.Now(), w.opt.Host))
	// Whole milliseconds, always: a sub-millisecond answer from a local
	// endpoint would otherwise print as "0s" in one unit and "12ms" in
	// another.
	took := fmt.Sprintf("%dms", time.Since(start).Milliseconds())
	switch res.kind {
	case delivered:
		return fmt.Sprintf("delivered (%s) in %s", res.reason, took), nil
	case retry:
		return "", fmt.Errorf("%s after %s (the service would retry)", res.reason, took)
	case gone:
		return "", fmt.Errorf("%s: the endpoint is gone", res.reason)
	case rejected:
		return "", fmt.Errorf("%s: rejected (the service would drop the delivery)", res.reason)
	}
	return "", fmt.Errorf("%s", res.reason)
}

func (w *Webhook) report(action, level, msg, errText string) {
	if w.opt.Report == nil {
		return
	}
	w.opt.Report(engine.Event{
		Time: w.opt.Now(), Action: action, Level: level,
		Message: w.label + ": " + msg, Error: sanitize.Text(w.scrub(errText)),
	})
}

// --- the worker ---

type outcome int

const (
	delivered outcome = iota
	retry             // try again later
	gone              // 410: stop
	rejected          // another 4xx: drop this delivery
	aborted           // Close
)

type result struct {
	kind       outcome
	reason     string        // "HTTP 500", "no response within 10s", ...
	retryAfter time.Duration // from a Retry-After header, 0 if none
}

func (w *Webhook) run(ctx context.Context) {
	defer close(w.done)
	failures := 0      // failed attempts in a row
	var next time.Time // no attempt before this
	for {
		e, ok := w.spool.head()
		if !ok {
			select {
			case <-w.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		if d := time.Until(next); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return
			}
			continue // the head may have changed (dropped by the cap)
		}
		sp, err := w.spool.load(e)
		if err != nil {
			w.spool.remove(e)
			w.report(ActionNotifyDegraded, "error", "dropped a spool file that cannot be read", err.Error())
			continue
		}
		if sp.Attempts == 0 {
			w.spool.syncNew()
		}
		res := w.attempt(ctx, sp.Message)
		switch res.kind {
		case aborted:
			return
		case delivered:
			w.spool.remove(e)
			if failures > 0 {
				w.report(ActionNotifyRecovered, "info", fmt.Sprintf("delivering again after %d failed %s", failures, english.Plural(failures, "attempt", "attempts")), "")
			}
			failures, next = 0, time.Time{}
		case retry:
			sp.Attempts++
			sp.LastError = res.reason
			if err := w.spool.update(e, sp); err != nil {
				w.report(ActionNotifyDegraded, "warn", "cannot record a failed attempt in the spool", err.Error())
			}
			failures++
			wait := w.backoff(failures)
			if res.retryAfter > 0 {
				wait = res.retryAfter
			}
			next = time.Now().Add(wait)
			if failures == 1 {
				w.report(ActionNotifyDegraded, "warn", fmt.Sprintf("delivery failed (%s); retrying with backoff, %d %s spooled", res.reason, w.spool.len(), english.Plural(w.spool.len(), "delivery", "deliveries")), res.reason)
			}
		case rejected:
			w.spool.remove(e)
			w.report(ActionNotifyDegraded, "error", fmt.Sprintf("delivery %s rejected (%s) and dropped: a 4xx other than 408, 410 and 429 is not retried", sanitize.Text(sp.Message.ID), res.reason), res.reason)
			failures, next = 0, time.Time{}
		case gone:
			w.gone.Store(true)
			n := w.spool.len()
			w.report(ActionNotifyDegraded, "error", fmt.Sprintf("endpoint gone (%s): no more deliveries to it until the service restarts; %d %s kept in the spool, and new ones are spooled for then", res.reason, n, english.Plural(n, "delivery", "deliveries")), res.reason)
			<-ctx.Done()
			return
		}
	}
}

// backoff is the full-jitter delay after n failures in a row.
func (w *Webhook) backoff(n int) time.Duration {
	ceiling := w.opt.BackoffBase
	for i := 1; i < n && ceiling < w.opt.BackoffMax; i++ {
		ceiling *= 2
	}
	ceiling = min(ceiling, w.opt.BackoffMax)
	return time.Duration(rand.Int64N(int64(ceiling) + 1))
}

// attempt sends m once.
func (w *Webhook) attempt(parent context.Context, m Message) result {
	body, err := Render(w.opt.Format, m)
	if err != nil {
		return result{kind: rejected, reason: err.Error()}
	}
	ctx, cancel := context.WithTimeout(parent, w.opt.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.opt.URL, bytes.NewReader(body))
	if err != nil {
		return result{kind: rejected, reason: "cannot build the request"}
	}
	ts := time.Now().Unix()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "descriptorpin/"+w.opt.Version)
	req.Header.Set("webhook-id", m.ID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	if w.key != nil {
		req.Header.Set("webhook-signature", Sign(w.key, m.ID, ts, body))
	}
	resp, err := w.client.Do(req)
	if err != nil {
		if parent.Err() != nil {
			return result{kind: aborted, reason: "stopped"}
		}
		return result{kind: retry, reason: w.netReason(ctx, err)}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return classify(resp, w.opt.MaxRetryAfter, time.Now())
}

// classify maps a response to what the worker does next.
func classify(resp *http.Response, maxRetryAfter time.Duration, now time.Time) result {
	code := resp.StatusCode
	reason := "HTTP " + strconv.Itoa(code)
	ra := retryAfter(resp.Header.Get("Retry-After"), now, maxRetryAfter)
	if ra > 0 {
		reason += ", Retry-After " + ra.String()
	}
	switch {
	case code >= 200 && code < 300:
		return result{kind: delivered, reason: reason}
	case code == http.StatusGone:
		return result{kind: gone, reason: reason}
	case code == http.StatusRequestTimeout || code == http.StatusTooManyRequests:
		return result{kind: retry, reason: reason, retryAfter: ra}
	case code >= 400 && code < 500:
		return result{kind: rejected, reason: reason}
	case code >= 300 && code < 400:
		return result{kind: retry, reason: reason + " (redirects are not followed)", retryAfter: ra}
	}
	return result{kind: retry, reason: reason, retryAfter: ra}
}

// retryAfter reads a Retry-After header (seconds or an HTTP date), capped
// at limit; 0 when absent, invalid or already past.
func retryAfter(v string, now time.Time, limit time.Duration) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		if secs > int64(limit/time.Second) {
			return limit
		}
		d = time.Duration(secs) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	}
	if d <= 0 {
		return 0
	}
	return min(d, limit)
}

// netReason describes a failed exchange without the URL.
func (w *Webhook) netReason(ctx context.Context, err error) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "no response within " + w.opt.Timeout.String()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timed out"
	}
	return sanitize.Text(w.scrub(err.Error()))
}

// scrub removes the URL, and its path and query, from s.
func (w *Webhook) scrub(s string) string {
	if s == "" {
		return s
	}
	s = strings.ReplaceAll(s, w.opt.URL, redact.Endpoint(w.opt.URL))
	if u, err := url.Parse(w.opt.URL); err == nil {
		if p := u.RequestURI(); len(p) > 1 {
			s = strings.ReplaceAll(s, p, "/…")
		}
		if u.User != nil {
			s = strings.ReplaceAll(s, u.User.String(), "…")
		}
	}
	return s
}
