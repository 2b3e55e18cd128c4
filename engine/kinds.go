package engine

import "time"

// TargetKind says how a watched target file is read.
type TargetKind string

// Target kinds.
const (
	KindAuto         TargetKind = "auto"          // decided from the file's content (the default)
	KindInventory    TargetKind = "inventory"     // a DescriptorPin inventory
	KindClientConfig TargetKind = "client-config" // an MCP client config (Claude, Cursor, VS Code, ...)
)

// TimeFormat is the one timestamp layout of events, state and
// notifications: RFC 3339 in UTC with milliseconds
// ("2026-05-01T12:00:00.000Z"). Use Stamp to apply it.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// Stamp formats t in UTC with TimeFormat.
func Stamp(t time.Time) string { return t.UTC().Format(TimeFormat) }
