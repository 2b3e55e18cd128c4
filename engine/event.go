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
)

// Event is one state change of the service, for the event log and the
// notification sinks. Every string in it is safe to log: descriptor text is
// sanitised and secrets never enter it.
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
}

// OpenFinding is a finding as the service tracks it: stable across scans
// and restarts, with the text a notification shows.
type OpenFinding struct {
	ID            string   `json:"id"`         // event-level id: file identity + finding id
	FindingID     string   `json:"finding_id"` // the scan's stable id (what approve --accept takes)
	Class         Class    `json:"class"`
	Severity      string   `json:"severity"`
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
