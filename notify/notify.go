// Package notify delivers the service's events to the places a person or a
// SIEM reads them: the JSON event log (one ECS-shaped JSON object per line,
// written with zerolog and rotated with lumberjack), desktop notifications
// (Desktop) and durable, signed webhooks (Webhook).
//
// Events arrive as engine.Event values that the engine has already
// sanitised and stripped of secrets. Sinks add a second belt: every string
// they write has control, bidi, zero-width and tag characters shown as
// escapes, so an event cannot rewrite the terminal or hide text from the
// person reading it.
//
// The notification sinks take finding-opened and finding-resolved events
// at or above their min_severity, and the health events watch-degraded
// and watch-recovered as if they were medium (see Accepts). They never
// block the caller on the network or on a notification service:
//
//   - Desktop queues (bounded, dropping when full) and a goroutine shows
//     one notification per burst of events (Window), replacing the last
//     one where the platform can: freedesktop notifications over a
//     private D-Bus connection on Linux and the BSDs (never autolaunching a
//     bus), osascript on macOS, a PowerShell toast on Windows.
//   - Webhook spools each delivery to disk (write, fsync, rename: a local
//     write, like the event log's) and a goroutine delivers the spool with
//     Standard Webhooks signatures, timeouts, exponential backoff with full
//     jitter, Retry-After, no redirects, and a spool that survives restarts
//     and SIGKILL (at least once, deduplicable by webhook-id).
//
// Sinks report about themselves (no session bus, an endpoint failing,
// gone or rejecting, a full spool) through a Report callback as
// notify-degraded and notify-recovered events, which the service writes
// to the event log only.
//
// notify imports the engine's domain types and its pure text packages (the
// one escaper, sanitize, and the one redaction policy, redact), never the
// watcher, the config or the command.
package notify

import "github.com/descriptorpin/descriptorpin/engine"

// Sink receives events.
//
// Send must not block its caller for long: the service calls it from the
// loop that scans, and scanning must never wait on a notification. A sink
// whose destination is slow (a desktop notifier, a webhook) queues
// internally and delivers in the background; a sink that fails counts or
// spools the failure, it never panics and never returns it to the caller.
// The event log (EventLog) writes one line to a local file and returns;
// Webhook writes one spool file and returns; Desktop only queues.
type Sink interface {
	// Name identifies the sink in diagnostics ("eventlog").
	Name() string
	// Send delivers one event, best effort.
	Send(ev engine.Event)
}

// Multi fans each event out to several sinks, in order. Nil entries are
// skipped.
type Multi []Sink

// Name implements Sink.
func (m Multi) Name() string { return "multi" }

// Send implements Sink: it hands ev to every sink in turn.
func (m Multi) Send(ev engine.Event) {
	for _, s := range m {
		if s != nil {
			s.Send(ev)
		}
	}
}
