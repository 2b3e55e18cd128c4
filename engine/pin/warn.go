package pin

import (
	"fmt"
	"slices"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// ExcludeWarning says what a pin leaves unguarded beyond the default, for
// a person: "" when its fields.exclude is the default (or excludes less,
// which only reports more), else one sentence naming each field it also
// excludes. A change to an excluded field is never a MUTATION, so a pin
// edited to exclude annotations hides an annotations rug pull (a tool
// that turns readOnlyHint off) and one excluding title or icons hides
// what the person sees of a tool. scan, diff and approve print it on
// stderr; the service puts it in the pin-changed event. Pure: the caller
// decides where it goes.
func ExcludeWarning(p *Pin) string {
	if p == nil || p.Format != Format2 {
		return ""
	}
	def := DefaultExclude()
	var extra []string
	for _, f := range p.Exclude {
		if !slices.Contains(def, f) && !slices.Contains(extra, f) {
			extra = append(extra, sanitize.Text(f))
		}
	}
	if len(extra) == 0 {
		return ""
	}
	slices.Sort(extra)
	what, them := "field", "it"
	if len(extra) > 1 {
		what, them = "fields", "them"
	}
	return fmt.Sprintf("the pin's fields.exclude leaves out the %s %s, which the default (%s) pins: a change to %s is never reported",
		what, strings.Join(extra, ", "), strings.Join(def, ", "), them)
}
