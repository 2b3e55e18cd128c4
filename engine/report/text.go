// Package report renders scan reports: the original's line-oriented text,
// a documented JSON object and SARIF 2.1.0. Rendering is deterministic (no
// timestamps, stable order) and every string that came from a descriptor
// or a config is sanitised before it is written.
package report

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/engine/scan"
	"github.com/descriptorpin/descriptorpin/internal/english"
)

// TextOptions tunes the text report.
type TextOptions struct {
	ShowIDs bool // append "[id ...]" to finding and signal lines
	// Severity starts each finding's first line with its severity
	// ("[high] MUTATION ..."), as status and notifications show it. The
	// reference rules never show it: their output is the original's.
	Severity bool
	// Color paints the severity for a terminal (ANSI SGR). Descriptor text
	// is never coloured: it is escaped like everywhere else.
	Color bool
	// Raw leaves descriptor text in FindingLines as found, for a caller
	// that keeps the lines and escapes each once where it writes it (the
	// service's open findings: event log, desktop, webhooks, status).
	// sanitize.Text of a raw line is the escaped line.
	Raw bool
}

// s sanitises one untrusted string for a line of text.
func s(v string) string { return sanitize.Text(v) }

// clipWith is the original's clip: newlines become spaces, then at most
// 88 characters (85 and "..."), each piece escaped with esc.
func clipWith(esc func(string) string, v string) string {
	v = strings.ReplaceAll(v, "\n", " ")
	if utf8.RuneCountInString(v) <= 88 {
		return esc(v)
	}
	r := []rune(v)
	return esc(string(r[:85])) + "..."
}

// asFound is the escaper of TextOptions.Raw.
func asFound(v string) string { return v }

// Text renders a report in the original's line formats and order:
// MUTATION, ADDED and REMOVED, SHADOW, POISON, TRANSPORT, then a summary.
func Text(r *scan.Report, opt TextOptions) []byte {
	out := Lines(r, opt)
	out = append(out, Summary(r)...)
	return append(out, '\n')
}

// Lines renders the finding lines without the summary, as diff and shadow
// print them.
func Lines(r *scan.Report, opt TextOptions) []byte {
	var b strings.Builder
	// MUTATION first, then ADDED and REMOVED interleaved by key, then the
	// static classes: the original's order.
	groups := [][]engine.Class{{engine.Mutation}, {engine.Launch}, {engine.Added, engine.Removed}, {engine.Shadow}, {engine.Poison}, {engine.Transport}}
	for _, g := range groups {
		for i := range r.Findings {
			f := &r.Findings[i]
			if f.Class != g[0] && (len(g) == 1 || f.Class != g[1]) {
				continue
			}
			for k, l := range FindingLines(f, r.Rules, opt) {
				if k == 0 && opt.Severity && r.Rules != detect.RulesReference {
					b.WriteString(severityTag(f.Severity, opt.Color))
				}
				b.WriteString(l)
				b.WriteByte('\n')
			}
		}
	}
	return []byte(b.String())
}

// FindingLines renders one finding as the text report does: a header line
// and indented detail lines, every untrusted string sanitised.
func FindingLines(f *engine.Finding, rules detect.RuleSet, opt TextOptions) []string {
	ref := rules == detect.RulesReference
	s := s // the package's escaper, or none for opt.Raw
	if opt.Raw {
		s = asFound
	}
	clip := func(v string) string { return clipWith(s, v) }
	id := func(v string) string {
		if opt.ShowIDs && v != "" {
			return " [id " + v + "]"
		}
		return ""
	}
	var out []string
	switch f.Class {
	case engine.Mutation:
		renamed := ""
		if f.RenamedFrom != "" {
			renamed = "renamed from " + s(f.RenamedFrom) + ", "
		}
		out = append(out, fmt.Sprintf("MUTATION %s: %spinned %s scanned %s%s", s(f.Subject), renamed, engine.Digest(f.PinnedHash), engine.Digest(f.ScannedHash), id(f.ID)))
		for _, c := range f.Changes {
			out = append(out, changeLinesWith(c, ref, s)...)
		}
		if f.ChangesOmitted > 0 {
			out = append(out, fmt.Sprintf("  %d more changed %s not shown (see --format json)", f.ChangesOmitted, plural(f.ChangesOmitted, "field", "fields", ref)))
		}
	case engine.Launch:
		out = append(out, fmt.Sprintf("LAUNCH %s: %s%s", s(f.Subject), s(f.Detail), id(f.ID)))
		for _, c := range f.Changes {
			out = append(out, changeLinesWith(c, ref, s)...)
		}
	case engine.Added:
		if f.Tool == "" && f.Detail != "" { // a server's launch config
			out = append(out, fmt.Sprintf("ADDED %s: %s, not in pin%s", s(f.Subject), clip(f.Detail), id(f.ID)))
			break
		}
		out = append(out, fmt.Sprintf("ADDED %s: scanned %s, not in pin%s", s(f.Subject), engine.Digest(f.ScannedHash), id(f.ID)))
	case engine.Removed:
		if f.Tool == "" && f.Detail != "" {
			out = append(out, fmt.Sprintf("REMOVED %s: %s%s", s(f.Subject), s(f.Detail), id(f.ID)))
			break
		}
		out = append(out, fmt.Sprintf("REMOVED %s: pinned %s, absent now%s", s(f.Subject), engine.Digest(f.PinnedHash), id(f.ID)))
	case engine.Shadow:
		names := make([]string, len(f.Servers))
		for i, n := range f.Servers {
			names[i] = s(n)
		}
		if len(f.LookAlikes) == 0 {
			out = append(out,
				fmt.Sprintf("SHADOW %s: claimed by %d servers (%s)%s", s(f.Subject), len(f.Servers), strings.Join(names, ", "), id(f.ID)),
				"  precedence risk: client resolution order decides the winner")
			break
		}
		// Look-alike names: one line each, with the characters that
		// differ named, since a Cyrillic а prints like a Latin a.
		out = append(out, fmt.Sprintf("SHADOW %s: claimed by %d servers (%s) under look-alike names (%s)%s",
			s(f.Subject), len(f.Servers), strings.Join(names, ", "), s(f.Collision), id(f.ID)))
		for _, la := range f.LookAlikes {
			line := fmt.Sprintf("  %s on %s: %s", s(la.Name), s(la.Server), s(la.Kind))
			if la.Chars != "" {
				line += ", " + s(la.Chars)
			}
			out = append(out, line)
		}
		out = append(out, "  precedence risk: client resolution order decides the winner, and a person or a model cannot tell the names apart")
	case engine.Poison:
		out = append(out, fmt.Sprintf("POISON %s: score %d, %d %s%s", s(f.Subject), f.Score, len(f.Signals), plural(len(f.Signals), "signal", "signals", ref), id(f.ID)))
		for _, sg := range f.Signals {
			where := ""
			if !ref && sg.Field != "description" {
				where = " in " + s(sg.Field)
			}
			out = append(out, fmt.Sprintf("  signal %s (weight %d): %s%s%s", sg.Name, sg.Weight, s(sg.Detail), where, id(sg.ID)))
		}
	default:
		out = append(out, fmt.Sprintf("%s %s: %s%s", f.Class, s(f.Subject), s(f.Detail), id(f.ID)))
	}
	return out
}

// changeLines shows one changed field. A value that fits on a line is
// shown whole on both sides, as the original does; a longer one (default
// rules) as a word diff, so a sentence added at the end of a long
// description is what the reader sees. The reference rules keep the
// original's 85-character cut.
func changeLines(c engine.Change, ref bool) []string { return changeLinesWith(c, ref, s) }

func changeLinesWith(c engine.Change, ref bool, esc func(string) string) []string {
	out := []string{fmt.Sprintf("  field %s changed", esc(c.Path))}
	if ref || (short(c.Pinned) && short(c.Scanned)) {
		return append(out, "    pinned:  "+clipWith(esc, c.Pinned), "    scanned: "+clipWith(esc, c.Scanned))
	}
	pinned, scanned := c.Pinned, c.Scanned
	if pinned == engine.Absent {
		out, pinned = append(out, "    pinned:  "+engine.Absent), ""
	}
	if scanned == engine.Absent {
		out, scanned = append(out, "    scanned: "+engine.Absent), ""
	}
	hunks := wordDiff(pinned, scanned, esc)
	if len(hunks) == 0 {
		return append(out, "    diff:    the same words; only spacing or line breaks changed")
	}
	for _, h := range hunks {
		out = append(out, "    diff:    "+h)
	}
	return out
}

func short(v string) bool {
	return utf8.RuneCountInString(v) <= 88 && !strings.ContainsAny(v, "\n\r")
}

// severityTag is "[high] ", coloured for a terminal when asked.
func severityTag(sv engine.Severity, color bool) string {
	tag := "[" + sv.String() + "]"
	if !color {
		return tag + " "
	}
	sgr := map[engine.Severity]string{engine.Critical: "1;31", engine.High: "31", engine.Medium: "33", engine.Low: "36"}[sv]
	if sgr == "" {
		return tag + " "
	}
	return "\x1b[" + sgr + "m" + tag + "\x1b[0m "
}

// plural picks a word form. The reference rules keep the original's
// always-plural wording ("1 signals") so its output is reproduced exactly.
func plural(n int, one, many string, ref bool) string {
	if ref {
		return many
	}
	return english.Plural(n, one, many)
}

// Counted reports whether a finding counts toward the summary total and
// the exit code. The reference rules count what the original counts:
// ADDED and REMOVED are printed but not counted.
func Counted(r *scan.Report, f engine.Finding) bool {
	if r.Rules == detect.RulesReference {
		return f.Class != engine.Added && f.Class != engine.Removed
	}
	return true
}

// CountedFindings is the number of findings that count.
func CountedFindings(r *scan.Report) int {
	n := 0
	for _, f := range r.Findings {
		if Counted(r, f) {
			n++
		}
	}
	return n
}

// CountedAtLeast is the number of counted findings of severity min or
// above: what --fail-on compares.
func CountedAtLeast(r *scan.Report, min engine.Severity) int {
	n := 0
	for _, f := range r.Findings {
		if Counted(r, f) && f.Severity >= min {
			n++
		}
	}
	return n
}

// CleanSummary is the line diff and shadow print when they find nothing
// (default rules; the original prints nothing): that the check ran, and
// over what.
func CleanSummary(cmd string, inv *engine.Inventory) string {
	tools := 0
	for _, sv := range inv.Servers {
		tools += len(sv.Tools)
	}
	n := len(inv.Servers)
	if cmd == "shadow" {
		return fmt.Sprintf("summary: no shadowed tool names (%d %s across %d %s)\n", tools, english.Plural(tools, "tool", "tools"), n, english.Plural(n, "server", "servers"))
	}
	return fmt.Sprintf("summary: no mutations (%d %s in %d %s checked against the pin)\n", tools, english.Plural(tools, "tool", "tools"), n, english.Plural(n, "server", "servers"))
}

// classCount counts findings of a class the way the summary does: POISON
// per tool, SHADOW per name, MUTATION per tool.
func classCount(r *scan.Report, c engine.Class) int {
	n := 0
	for _, f := range r.Findings {
		if f.Class == c {
			n++
		}
	}
	return n
}

// Summary is the closing line. With the reference rules it is the
// original's exactly: "summary: N findings (m mutation, s shadow, p poison,
// t transport)". The default rules count every class and the accepted
// findings.
func Summary(r *scan.Report) string {
	ref := r.Rules == detect.RulesReference
	total := CountedFindings(r)
	if ref {
		return fmt.Sprintf("summary: %d findings (%d mutation, %d shadow, %d poison, %d transport)", total,
			classCount(r, engine.Mutation), classCount(r, engine.Shadow), classCount(r, engine.Poison), classCount(r, engine.Transport))
	}
	parts := make([]string, 0, len(engine.Classes))
	for _, c := range engine.Classes {
		parts = append(parts, fmt.Sprintf("%d %s", classCount(r, c), strings.ToLower(string(c))))
	}
	line := fmt.Sprintf("summary: %d %s (%s)", total, plural(total, "finding", "findings", false), strings.Join(parts, ", "))
	if n := len(r.Accepted); n > 0 {
		line += fmt.Sprintf(", %d accepted", n)
	}
	return line
}
