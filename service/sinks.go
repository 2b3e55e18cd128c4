package service

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
	"github.com/descriptorpin/descriptorpin/notify"
)

// SinkOptions is what the sinks are handed of their surroundings; the
// zero value is the real thing.
type SinkOptions struct {
	Version string              // the program's version, sent with webhooks
	Host    string              // "": os.Hostname
	Getenv  func(string) string // nil: os.Getenv (secret_env, the session bus)
	Now     func() time.Time    // nil: time.Now
	// BackoffBase and BackoffMax are the webhooks' retry backoff; zero is
	// notify's default (1s, 10m).
	BackoffBase, BackoffMax time.Duration
	// Desktop builds the desktop sink from the options the config gives;
	// nil is notify.NewDesktop. Returning nil builds no desktop sink.
	Desktop func(notify.DesktopOptions) *notify.Desktop
}

func (o SinkOptions) withDefaults() SinkOptions {
	if o.Host == "" {
		o.Host, _ = os.Hostname()
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Desktop == nil {
		o.Desktop = notify.NewDesktop
	}
	return o
}

// NotifySinks are the notification sinks of a config, built but not
// started.
type NotifySinks struct {
	Desktop  *notify.Desktop
	Webhooks []*notify.Webhook
	Warnings []string // said once at start (an unsigned webhook, a readable secret file)
}

// NewNotifySinks builds the desktop sink (when enabled) and one sink per
// webhook, reading each webhook's secret. report receives the events the
// sinks emit about themselves. An unreadable or invalid secret is an
// error: the service does not start with a webhook it cannot sign for.
func NewNotifySinks(cfg config.Config, report func(engine.Event), opt SinkOptions) (*NotifySinks, error) {
	opt = opt.withDefaults()
	s := &NotifySinks{}
	for i, wc := range cfg.Notify.Webhooks {
		field := fmt.Sprintf("notify.webhooks[%d]", i)
		secret, warn, err := webhookSecret(opt.Getenv, wc)
		if err != nil {
			return nil, fmt.Errorf("%s (%s): %w", field, wc, err)
		}
		if warn != "" {
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s: %s", wc, warn))
		}
		if secret == "" && wc.Format == config.WebhookStandard {
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s: no secret_file or secret_env, so its deliveries are not signed", wc))
		}
		w, err := notify.NewWebhook(notify.WebhookOptions{
			Name: wc.Name, URL: wc.URL, Format: string(wc.Format), Secret: secret,
			MinSeverity: wc.MinSeverity, Timeout: wc.Timeout,
			SpoolDir:    filepath.Join(cfg.StateDir, "spool", notify.SpoolName(wc.Name, wc.URL)),
			BackoffBase: opt.BackoffBase, BackoffMax: opt.BackoffMax,
			Host: opt.Host, Version: opt.Version, Report: report,
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", field, err)
		}
		s.Webhooks = append(s.Webhooks, w)
	}
	if cfg.Notify.Desktop.Enabled {
		s.Desktop = opt.Desktop(notify.DesktopOptions{
			MinSeverity: cfg.Notify.Desktop.MinSeverity,
			Getenv:      opt.Getenv,
			Report:      report,
		})
	}
	return s, nil
}

// webhookSecret reads a webhook's signing secret from its secret_file or
// secret_env ("" when it has neither). The secret never appears in an
// error; warn is a note for the event log (a secret file others can read).
func webhookSecret(getenv func(string) string, w config.Webhook) (secret, warn string, err error) {
	switch {
	case w.SecretFile != "":
		data, mode, err := fileio.ReadWithMode("webhook secret file", w.SecretFile, 1<<20)
		if err != nil {
			return "", "", err
		}
		secret = strings.TrimSpace(string(data))
		if secret == "" {
			return "", "", fmt.Errorf("the secret file %q is empty", sanitize.Text(w.SecretFile))
		}
		if mode&0o077 != 0 {
			warn = fmt.Sprintf("the secret file %q is readable by other users (mode %04o); chmod 600 it", sanitize.Text(w.SecretFile), mode)
		}
	case w.SecretEnv != "":
		secret = strings.TrimSpace(getenv(w.SecretEnv))
		if secret == "" {
			return "", "", fmt.Errorf("the environment variable %s (secret_env) is not set or empty", w.SecretEnv)
		}
	default:
		return "", "", nil
	}
	if _, err := notify.DecodeSecret(secret); err != nil {
		return "", "", err
	}
	return secret, warn, nil
}

// BuildSinks starts the notification sinks of cfg and returns the sink the
// service emits to (they, then log), with a function that stops them (the desktop shows
// what is pending, the webhook workers stop; spooled deliveries stay for
// the next start).
//
// Order matters: each webhook spools an event (write, fsync, rename)
// before the event log writes its line, so an event in the log is already
// durable for every webhook that takes it, even if the process is killed
// right after. The desktop only queues. The sinks report about themselves
// (no session bus, an endpoint failing or gone, a full spool) straight
// into the event log, never into a notification sink.
func BuildSinks(cfg config.Config, log notify.Sink, opt SinkOptions) (*Sinks, func(), error) {
	opt = opt.withDefaults()
	report := log.Send
	s, err := NewNotifySinks(cfg, report, opt)
	if err != nil {
		return nil, nil, err
	}
	var started []*notify.Webhook
	stop := func() {
		if s.Desktop != nil {
			_ = s.Desktop.Close()
		}
		for _, w := range started {
			_ = w.Close()
		}
	}
	var sinks notify.Multi
	for _, w := range s.Webhooks {
		if err := w.Start(); err != nil {
			stop()
			return nil, nil, Runtime(err) // the spool cannot be opened
		}
		started = append(started, w)
		sinks = append(sinks, w)
	}
	if s.Desktop != nil {
		s.Desktop.Start()
		sinks = append(sinks, s.Desktop)
	}
	for _, msg := range s.Warnings {
		report(engine.Event{Time: opt.Now(), Action: notify.ActionNotifyDegraded, Level: "warn", Message: msg})
	}
	return &Sinks{Notify: sinks, Log: log}, stop, nil
}

// Sinks is what the service emits to: the notification sinks, then the
// event log. It is a Deliverer: Deliver says whether the event log took
// the event, so the service records a finding as announced only once it
// is written. An event the log failed to take is not handed to the
// notification sinks again when the service retries it: a person is
// notified once, the log gets every event once it can be written.
type Sinks struct {
	Notify notify.Multi
	Log    notify.Sink

	mu      sync.Mutex
	pending map[string]bool // finding events notified but not yet logged
}

// Name implements notify.Sink.
func (s *Sinks) Name() string { return "sinks" }

// Send implements notify.Sink.
func (s *Sinks) Send(ev engine.Event) { _ = s.Deliver(ev) }

// Deliver hands ev to the notification sinks and writes it to the log,
// returning the log's error. A log that is a plain Sink cannot fail.
func (s *Sinks) Deliver(ev engine.Event) error {
	key := ""
	if ev.Finding != nil {
		key = ev.Action + "\x00" + ev.Finding.ID
	}
	s.mu.Lock()
	again := key != "" && s.pending[key]
	s.mu.Unlock()
	if !again {
		s.Notify.Send(ev)
	}
	var err error
	if w, ok := s.Log.(interface{ Write(engine.Event) error }); ok {
		err = w.Write(ev)
	} else if s.Log != nil {
		s.Log.Send(ev)
	}
	if key != "" {
		s.mu.Lock()
		if s.pending == nil {
			s.pending = map[string]bool{}
		}
		if err != nil {
			s.pending[key] = true
		} else {
			delete(s.pending, key)
		}
		s.mu.Unlock()
	}
	return err
}
