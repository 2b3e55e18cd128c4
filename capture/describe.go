package capture

import (
	"fmt"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Describe says how a capture went, for a person: the transport (and
// what it fell back to), pages, the server's name and protocol, escaped.
func (r *Result) Describe() string {
	parts := []string{sanitize.Text(r.Server.Transport)}
	if r.Via != "" && r.Via != r.Server.Transport {
		parts[0] += " via " + r.Via
	}
	if r.Pages > 1 {
		parts = append(parts, fmt.Sprintf("%d pages", r.Pages))
	}
	if r.ServerInfo != "" {
		parts = append(parts, fmt.Sprintf("server %q", sanitize.Text(sanitize.Clip(r.ServerInfo, 60))))
	}
	if r.Protocol != "" {
		parts = append(parts, "protocol "+sanitize.Text(sanitize.Clip(r.Protocol, 20)))
	}
	return strings.Join(parts, ", ")
}

// Describe lists what a probe saw differently, escaped and clipped.
func (d *Difference) Describe() string {
	names := func(ns []string) string {
		q := make([]string, len(ns))
		for i, n := range ns {
			q[i] = sanitize.Text(sanitize.Clip(n, 80))
		}
		return strings.Join(q, ", ")
	}
	var parts []string
	if len(d.Added) > 0 {
		parts = append(parts, "added "+names(d.Added))
	}
	if len(d.Removed) > 0 {
		parts = append(parts, "removed "+names(d.Removed))
	}
	for _, ch := range d.Changed {
		parts = append(parts, fmt.Sprintf("changed %s (%s)", sanitize.Text(sanitize.Clip(ch.Tool, 80)), strings.Join(ch.Fields, ", ")))
	}
	return strings.Join(parts, "; ")
}
