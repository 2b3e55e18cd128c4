package notify

import (
	"strings"
	"unicode/utf8"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Actions of the events the notification sinks report about themselves
// (through their Report callback, into the event log). They are never
// sent to a notification sink.
const (
	// ActionNotifyDegraded: a sink cannot deliver (no D-Bus session bus,
	// a webhook endpoint failing or gone, a spool full or unwritable, a
	// delivery rejected). Level warn, or error when something was dropped.
	ActionNotifyDegraded = "notify-degraded"
	// ActionNotifyRecovered: a sink that was failing delivered again.
	ActionNotifyRecovered = "notify-recovered"
)

// HealthSeverity is the severity a health event (watch-degraded,
// watch-recovered) has for a sink's min_severity filter: a sink set to
// low or medium receives them, one set to high or critical does not.
const HealthSeverity = engine.Medium

// Accepts reports whether a sink whose threshold is minSeverity (the zero
// value is medium) takes ev. Sinks take finding-opened and finding-resolved events
// whose finding is at least that severe (a finding of an unknown severity
// always passes: it is never filtered away by accident), and the health
// events watch-degraded and watch-recovered as if they were HealthSeverity.
// Every other event (daemon-started, scan-failed, pin-changed, the sinks'
// own notify-* events, ...) is for the event log only.
func Accepts(ev engine.Event, minSeverity engine.Severity) bool {
	floor := minSeverity
	if floor == 0 {
		floor = engine.Medium
	}
	switch ev.Action {
	case engine.ActionFindingOpened, engine.ActionFindingResolved:
		if ev.Finding == nil {
			return false
		}
		r := ev.Finding.Severity
		return r < engine.Low || r > engine.Critical || r >= floor
	case engine.ActionWatchDegraded, engine.ActionWatchRecovered:
		return HealthSeverity >= floor
	}
	return false
}

// clip returns s cut to at most max runes, ending in "…" when cut. s is
// expected to be valid UTF-8 (escape's output is).
func clip(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return strings.TrimRight(s[:i], " ") + "…"
		}
		n++
	}
	return s
}

// oneLine is escape(s) cut to max runes: the form every descriptor-derived
// string takes in a notification (no control, bidi or invisible
// characters; no line breaks, which escape shows as \x0a).
func oneLine(s string, max int) string { return clip(sanitize.Text(s), max) }
