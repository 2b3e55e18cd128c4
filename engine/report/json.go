package report

import (
	"strconv"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/engine/scan"
)

// ToolInfo names the program that wrote a report, for the JSON "tool"
// object and the SARIF driver.
type ToolInfo struct {
	Name    string
	Version string
}

// JSON renders a report as one documented JSON object, two-space indented
// with keys sorted and a final newline. The same report gives the same
// bytes. Every string is written with the characters sanitize.NeedsEscape
// reports (C0 and C1 controls, ESC, bidi controls, zero-width and tag
// characters) as \uXXXX escapes, so a descriptor cannot smuggle them raw
// into a log viewer or a terminal that shows the file.
//
// The object:
//
//	{
//	  "tool":       {"name": "...", "version": "..."},
//	  "file":       the scanned file as the caller named it,
//	  "rules":      the rule set ("default" or "reference"),
//	  "pin_format": 1 or 2 (absent when no pin was used),
//	  "findings":   [finding, ...] in report order,
//	  "accepted":   [finding, ...] findings a pin's acceptances silenced ([] when none),
//	  "summary": {
//	    "total":    findings that count toward the exit code (see Counted),
//	    "reported": every finding listed in "findings",
//	    "by_class": {"MUTATION": n, "ADDED": n, "REMOVED": n, "SHADOW": n, "POISON": n, "TRANSPORT": n},
//	    "accepted": the number of accepted findings
//	  }
//	}
//
// A finding always has "id", "class", "severity" ("low", "medium",
// "high", "critical") and "subject"; the other members appear only when
// they apply: "server", "tool", "pinned_hash", "pinned_digest",
// "scanned_hash", "scanned_digest", "changes" ([{"field", "path",
// "pinned", "scanned"}]), "changes_omitted", "servers", "collision",
// "score" (always present on POISON), "signals" ([{"id", "name",
// "weight", "detail", "field", "evidence"}]), "rule", "detail",
// "transport", "accept_hash" and "location" ({"json_path", "line"}).
func JSON(r *scan.Report, tool ToolInfo) []byte {
	byClass := newObject()
	counts := engine.CountByClass(r.Findings)
	for _, c := range engine.Classes {
		byClass.set(string(c), jnum(counts[c]))
	}
	summary := newObject().
		set("total", jnum(CountedFindings(r))).
		set("reported", jnum(len(r.Findings))).
		set("by_class", byClass.value()).
		set("accepted", jnum(len(r.Accepted)))

	root := newObject().
		set("tool", newObject().set("name", jstr(tool.Name)).set("version", jstr(tool.Version)).value()).
		set("file", jstr(r.File)).
		set("rules", jstr(string(r.Rules))).
		set("findings", findingsValue(r.Findings)).
		set("accepted", findingsValue(r.Accepted)).
		set("summary", summary.value())
	if r.PinFormat != 0 {
		root.set("pin_format", jnum(r.PinFormat))
	}
	return render(root.value())
}

// render writes v indented, escaping what sanitize.NeedsEscape reports,
// with a final newline.
func render(v jsonv.Value) []byte {
	out := canon.AppendIndent(nil, &v, 0, sanitize.NeedsEscape)
	return append(out, '\n')
}

func findingsValue(fs []engine.Finding) jsonv.Value {
	items := make([]jsonv.Value, 0, len(fs))
	for i := range fs {
		items = append(items, findingValue(&fs[i]))
	}
	return jarr(items)
}

func findingValue(f *engine.Finding) jsonv.Value {
	o := newObject().
		set("id", jstr(f.ID)).
		set("class", jstr(string(f.Class))).
		set("severity", jstr(f.Severity.String())).
		set("subject", jstr(f.Subject))
	o.opt("server", f.Server)
	o.opt("tool", f.Tool)
	if f.PinnedHash != "" {
		o.set("pinned_hash", jstr(f.PinnedHash)).set("pinned_digest", jstr(engine.Digest(f.PinnedHash)))
	}
	if f.ScannedHash != "" {
		o.set("scanned_hash", jstr(f.ScannedHash)).set("scanned_digest", jstr(engine.Digest(f.ScannedHash)))
	}
	if len(f.Changes) > 0 {
		items := make([]jsonv.Value, 0, len(f.Changes))
		for _, c := range f.Changes {
			items = append(items, newObject().
				set("field", jstr(c.Field)).
				set("path", jstr(c.Path)).
				set("pinned", jstr(c.Pinned)).
				set("scanned", jstr(c.Scanned)).value())
		}
		o.set("changes", jarr(items))
	}
	if f.ChangesOmitted > 0 {
		o.set("changes_omitted", jnum(f.ChangesOmitted))
	}
	if len(f.Servers) > 0 {
		items := make([]jsonv.Value, 0, len(f.Servers))
		for _, s := range f.Servers {
			items = append(items, jstr(s))
		}
		o.set("servers", jarr(items))
	}
	o.opt("collision", f.Collision)
	if f.Class == engine.Poison || f.Score != 0 {
		o.set("score", jnum(f.Score))
	}
	if len(f.Signals) > 0 {
		items := make([]jsonv.Value, 0, len(f.Signals))
		for _, sg := range f.Signals {
			items = append(items, newObject().
				set("id", jstr(sg.ID)).
				set("name", jstr(sg.Name)).
				set("weight", jnum(sg.Weight)).
				set("detail", jstr(sg.Detail)).
				set("field", jstr(sg.Field)).
				set("evidence", jstr(sg.Evidence)).value())
		}
		o.set("signals", jarr(items))
	}
	o.opt("rule", f.Rule)
	o.opt("detail", f.Detail)
	o.opt("transport", f.Transport)
	o.opt("accept_hash", f.AcceptHash)
	if f.Path != "" || f.Line > 0 {
		loc := newObject()
		loc.opt("json_path", f.Path)
		if f.Line > 0 {
			loc.set("line", jnum(f.Line))
		}
		o.set("location", loc.value())
	}
	return o.value()
}

// object builds a jsonv object. Members are written sorted by the
// renderer, so the order of set calls does not matter; a key set twice
// keeps its last value.
type object struct{ v jsonv.Value }

func newObject() *object {
	return &object{jsonv.Value{Kind: jsonv.Object, Members: []jsonv.Member{}}}
}

func (o *object) set(k string, v jsonv.Value) *object {
	for i := range o.v.Members {
		if o.v.Members[i].Key == k {
			o.v.Members[i].Value = v
			return o
		}
	}
	o.v.Members = append(o.v.Members, jsonv.Member{Key: k, Value: v})
	return o
}

// opt sets a string member unless the value is empty.
func (o *object) opt(k, v string) *object {
	if v == "" {
		return o
	}
	return o.set(k, jstr(v))
}

func (o *object) value() jsonv.Value { return o.v }

func jstr(s string) jsonv.Value { return jsonv.Value{Kind: jsonv.String, Str: s} }

func jnum(n int) jsonv.Value { return jsonv.Value{Kind: jsonv.Number, Str: strconv.Itoa(n)} }

func jarr(items []jsonv.Value) jsonv.Value {
	if items == nil {
		items = []jsonv.Value{}
	}
	return jsonv.Value{Kind: jsonv.Array, Items: items}
}
