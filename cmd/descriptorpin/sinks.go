package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
	"github.com/descriptorpin/descriptorpin/notify"
)

// Test hooks: environment variables the end-to-end tests set. They are
// not configuration (the config file is), and nothing documents them to
// users.
const (
	// envTestBackoff is "BASE/MAX" (for example "20ms/200ms"): the webhook
	// retry backoff instead of 1s/10m, so retry tests take milliseconds.
	envTestBackoff = "DESCRIPTORPIN_TEST_WEBHOOK_BACKOFF"
	// envTestDesktop "off" builds no desktop sink, so the suite never
	// shows a notification on the desktop of the developer running it.
	envTestDesktop = "DESCRIPTORPIN_TEST_DESKTOP"
	// envTestDesktopTimeout bounds each desktop notification call instead
	// of 5s, so the test of a server that never answers is short.
	envTestDesktopTimeout = "DESCRIPTORPIN_TEST_DESKTOP_TIMEOUT"
)

// notifySinks are the notification sinks of a config, built but not
// started.
type notifySinks struct {
	desktop  *notify.Desktop
	webhooks []*notify.Webhook
	warnings []string // said once at start (an unsigned webhook, a readable secret file)
}

// newNotifySinks builds the desktop sink (when enabled) and one sink per
// webhook, reading each webhook's secret. report receives the events the
// sinks emit about themselves. An unreadable or invalid secret is an
// error: the service does not start with a webhook it cannot sign for.
func newNotifySinks(e *env, cfg config.Config, report func(engine.Event)) (*notifySinks, error) {
	host, _ := os.Hostname()
	s := &notifySinks{}
	base, max, err := testBackoff(e.getenv(envTestBackoff))
	if err != nil {
		return nil, err
	}
	for i, wc := range cfg.Notify.Webhooks {
		field := fmt.Sprintf("notify.webhooks[%d]", i)
		secret, warn, err := webhookSecret(e, wc)
		if err != nil {
			return nil, fmt.Errorf("%s (%s): %w", field, wc, err)
		}
		if warn != "" {
			s.warnings = append(s.warnings, fmt.Sprintf("%s: %s", wc, warn))
		}
		if secret == "" && wc.Format == config.WebhookStandard {
			s.warnings = append(s.warnings, fmt.Sprintf("%s: no secret_file or secret_env, so its deliveries are not signed", wc))
		}
		w, err := notify.NewWebhook(notify.WebhookOptions{
			Name: wc.Name, URL: wc.URL, Format: string(wc.Format), Secret: secret,
			MinSeverity: string(wc.MinSeverity), Timeout: wc.Timeout,
			SpoolDir:    filepath.Join(cfg.StateDir, "spool", notify.SpoolName(wc.Name, wc.URL)),
			BackoffBase: base, BackoffMax: max,
			Host: host, Version: version, Report: report,
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", field, err)
		}
		s.webhooks = append(s.webhooks, w)
	}
	if cfg.Notify.Desktop.Enabled && e.getenv(envTestDesktop) != "off" {
		var timeout time.Duration
		if v := e.getenv(envTestDesktopTimeout); v != "" {
			if timeout, err = time.ParseDuration(v); err != nil || timeout <= 0 {
				return nil, fmt.Errorf("%s=%q: want a duration, such as 500ms", envTestDesktopTimeout, sanitize.Text(v))
			}
		}
		s.desktop = notify.NewDesktop(notify.DesktopOptions{
			MinSeverity: string(cfg.Notify.Desktop.MinSeverity),
			Timeout:     timeout,
			Getenv:      e.getenv,
			Report:      report,
		})
	}
	return s, nil
}

// webhookSecret reads a webhook's signing secret from its secret_file or
// secret_env ("" when it has neither). The secret never appears in an
// error; warn is a note for the event log (a secret file others can read).
func webhookSecret(e *env, w config.Webhook) (secret, warn string, err error) {
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
		secret = strings.TrimSpace(e.getenv(w.SecretEnv))
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

// testBackoff reads envTestBackoff; zero durations mean the defaults.
func testBackoff(v string) (base, max time.Duration, err error) {
	if v == "" {
		return 0, 0, nil
	}
	b, m, ok := strings.Cut(v, "/")
	if ok {
		base, err = time.ParseDuration(b)
		if err == nil {
			max, err = time.ParseDuration(m)
		}
	}
	if !ok || err != nil || base <= 0 || max < base {
		return 0, 0, fmt.Errorf("%s=%q: want BASE/MAX durations, such as 20ms/200ms", envTestBackoff, sanitize.Text(v))
	}
	return base, max, nil
}

// buildSinks starts the notification sinks of cfg and returns the sink the
// service emits to, with a function that stops them (the desktop shows
// what is pending, the webhook workers stop; spooled deliveries stay for
// the next start).
//
// Order matters: each webhook spools an event (write, fsync, rename)
// before the event log writes its line, so an event in the log is already
// durable for every webhook that takes it, even if the process is killed
// right after. The desktop only queues. The sinks report about themselves
// (no session bus, an endpoint failing or gone, a full spool) straight
// into the event log, never into a notification sink.
func buildSinks(e *env, cfg config.Config, log *notify.EventLog) (notify.Sink, func(), error) {
	report := log.Send
	s, err := newNotifySinks(e, cfg, report)
	if err != nil {
		return nil, nil, err
	}
	var started []*notify.Webhook
	stop := func() {
		if s.desktop != nil {
			_ = s.desktop.Close()
		}
		for _, w := range started {
			_ = w.Close()
		}
	}
	var sinks notify.Multi
	for _, w := range s.webhooks {
		if err := w.Start(); err != nil {
			stop()
			return nil, nil, err
		}
		started = append(started, w)
		sinks = append(sinks, w)
	}
	if s.desktop != nil {
		s.desktop.Start()
		sinks = append(sinks, s.desktop)
	}
	for _, msg := range s.warnings {
		report(engine.Event{Time: time.Now(), Action: notify.ActionNotifyDegraded, Level: "warn", Message: msg})
	}
	return append(sinks, log), stop, nil
}
