package monitor

import (
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
)

// Alert is a finding the service raises itself (engine.ClassInput,
// ClassPin, ClassService): a file that cannot be read or parsed, a pin
// that is gone, events that cannot be written. Its id depends on the
// file and the rule only, so it opens once and stays open until the
// service clears it, whatever the error text says meanwhile.
type Alert struct {
	Class    engine.Class
	Rule     string
	Severity engine.Severity
	Subject  string
	Summary  string
	Details  []string
}

// IsAlert reports whether c is an alert class: a scan never reports one,
// so ApplyScan never resolves one.
func IsAlert(c engine.Class) bool {
	return c == engine.ClassInput || c == engine.ClassPin || c == engine.ClassService
}

// AlertID is the event-level id of an alert of rule on a file.
func AlertID(identity, rule string) string {
	return engine.StableID("open", identity, "alert", rule)
}

// SetAlerts makes the open alerts of class on fs's file exactly alerts:
// it opens those not open (one finding-opened each) and resolves the open
// ones of class that are not in alerts (one finding-resolved each).
func SetAlerts(fs *FileState, class engine.Class, alerts []Alert, now time.Time) []engine.Event {
	if fs.Open == nil {
		fs.Open = map[string]*engine.OpenFinding{}
	}
	want := map[string]*engine.OpenFinding{}
	for _, a := range alerts {
		id := AlertID(fs.Identity, a.Rule)
		details := make([]string, 0, len(a.Details))
		for _, d := range a.Details {
			details = append(details, "  "+d)
		}
		want[id] = &engine.OpenFinding{
			ID: id, FindingID: engine.StableID("alert", fs.Identity, a.Rule), Class: class,
			Severity: a.Severity, Subject: a.Subject, Rule: a.Rule,
			Summary: a.Summary, Details: details, OpenedAt: stamp(now),
		}
	}
	// Only alerts of this class are set here; every other finding stays.
	return reconcile(fs, want, now, func(old *engine.OpenFinding) bool { return old.Class != class })
}
