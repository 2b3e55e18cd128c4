// Package notify delivers the service's events to the places a person or a
// SIEM reads them: the JSON event log (one ECS-shaped JSON object per line,
// written with zerolog and rotated with lumberjack) and, in later issues,
// desktop notifications and signed webhooks.
//
// Events arrive as engine.Event values that the engine has already
// sanitised and stripped of secrets. Sinks add a second belt: every string
// they write has control, bidi, zero-width and tag characters shown as
// escapes, so an event cannot rewrite the terminal or hide text from the
// person reading it.
//
// notify imports only the engine's domain types, never the engine's
// subpackages, the watcher, the config or the command.
package notify

import "github.com/descriptorpin/descriptorpin/engine"

// Sink receives events.
//
// Send must not block its caller for long: the service calls it from the
// loop that scans, and scanning must never wait on a notification. A sink
// whose destination is slow (a desktop notifier, a webhook) queues
// internally and delivers in the background; a sink that fails counts or
// spools the failure, it never panics and never returns it to the caller.
// The desktop and webhook sinks are added by a later issue; the event log
// (EventLog) writes one line to a local file and returns.
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
