package engine

import "time"

// Event actions: exactly one per event.
const (
	ActionDaemonStarted   = "daemon-started"
	ActionDaemonStopped   = "daemon-stopped"
	ActionFindingOpened   = "finding-opened"
	ActionFindingResolved = "finding-resolved"
	ActionScanFailed      = "scan-failed"
	ActionPinCreated      = "pin-created"
	ActionPinChanged      = "pin-changed"
	ActionWatchDegraded   = "watch-degraded"
	ActionWatchRecovered  = "watch-recovered"
	// ActionStateRecreated: the state directory or file was deleted under
	// the running service and has been written anew.
	ActionStateRecreated = "state-recreated"
)

// Event is one state change of the service, for the event log and the
// notification sinks. Secrets never enter it. A finding's text (Finding,
// and Message for finding events) is carried as found: every writer (the
// event log, desktop, webhook bodies, status) escapes it once with
// engine/sanitize where it writes it.
type Event struct {
	Time    time.Time
	Action  string
	Level   string // "info", "warn" or "error"
	Message string
	File    string // the target (or pin) the event is about, if any

	Finding *OpenFinding // finding-opened, finding-resolved

	// scan-failed, watch-degraded: what went wrong.
	Error string

	// pin-created, pin-changed.
	Pin *PinChange
}

// PinChange says what a new or changed pin holds compared with the last.
type PinChange struct {
	Added       []string // keys (and "server:" launch configs) newly pinned
	Removed     []string
	Reapproved  []string // entries whose hash or approval changed
	Accepted    []string // acceptances added
	Unaccepted  []string // acceptances removed
	ApprovedBy  []string // who approved what changed, sorted
	Tools       int      // entries in the pin now
	Servers     int
	Acceptances int
	// ExcludeWarning (pin-changed): what the new pin's fields.exclude
	// leaves unguarded beyond the default (pin.ExcludeWarning); "" when
	// it excludes no more than the default.
	ExcludeWarning string
}

// OpenFinding is a finding as the service tracks it: stable across scans
// and restarts, with the text a notification shows.
type OpenFinding struct {
	ID            string   `json:"id"`         // event-level id: file identity + finding id
	FindingID     string   `json:"finding_id"` // the scan's stable id (what approve --accept takes)
	Class         Class    `json:"class"`
	Severity      Severity `json:"severity"`
	Subject       string   `json:"subject"`
	Server        string   `json:"server,omitempty"`
	Tool          string   `json:"tool,omitempty"`
	Rule          string   `json:"rule,omitempty"` // TRANSPORT rule or the first POISON signal
	Summary       string   `json:"summary"`        // one sanitised line
	Details       []string `json:"details,omitempty"`
	PinnedDigest  string   `json:"pinned_digest,omitempty"`
	ScannedDigest string   `json:"scanned_digest,omitempty"`
	Score         int      `json:"score,omitempty"`
	Signals       []string `json:"signals,omitempty"`
	OpenedAt      string   `json:"opened_at"`
}

// Alert classes: findings the service raises about its own inputs and
// health rather than a scan's. They are tracked, announced and resolved
// like any finding (and so reach the notification sinks), but a scan
// report never holds one, so they are not in Classes.
const (
	// ClassInput: a watched file cannot be read (not a regular file, a
	// read that does not end), does not parse, or parses only with the
	// leniency of the client that reads it.
	ClassInput Class = "INPUT"
	// ClassPin: the pin is missing or unusable after the first start.
	ClassPin Class = "PIN"
	// ClassService: the service cannot record its events.
	ClassService Class = "SERVICE"
)

// The rules of the alert classes (rule.name in events).
const (
	RuleNotRegular       = "not-regular"
	RuleUnreadable       = "unreadable"
	RuleParseFailed      = "parse-failed"
	RuleLenientParse     = "lenient-parse"
	RulePinMissing       = "pin-missing"
	RulePinInvalid       = "pin-invalid"
	RuleEventsUnwritable = "events-unwritable"
)
