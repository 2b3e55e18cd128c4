package notify

import "github.com/descriptorpin/descriptorpin/engine/sanitize"

// Every string a sink writes goes through sanitize.Text, the engine's one
// escaper for terminals, logs and notifications: text the engine already
// sanitised passes through unchanged (a backslash is never escaped).

// escapeAll escapes each string of ss into a new slice; nil stays nil.
func escapeAll(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = sanitize.Text(s)
	}
	return out
}
