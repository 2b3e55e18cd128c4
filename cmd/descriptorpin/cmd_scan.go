package main

import (
	"fmt"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/report"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/engine/scan"
	"github.com/descriptorpin/descriptorpin/service"
)

func init() {
	register(&command{
		name:    "scan",
		summary: "report all finding classes against a pin",
		run:     func(e *env, args []string) error { return runScan(e, "scan", args) },
	})
	register(&command{
		name:    "diff",
		summary: "report rug-pull mutations only",
		run:     func(e *env, args []string) error { return runScan(e, "diff", args) },
	})
	register(&command{
		name:    "shadow",
		summary: "report cross-server tool name collisions only",
		run:     func(e *env, args []string) error { return runScan(e, "shadow", args) },
	})
}

// scanFlags are the flags scan, diff and shadow share.
type scanFlags struct {
	pin, rules, format, failOn, color string
	showIDs, quiet, discover          bool
}

func runScan(e *env, name string, args []string) error {
	c := lookup(name)
	fs := newFlags(e, c)
	var f scanFlags
	if name != "shadow" {
		fs.StringVar(&f.pin, "p", "", "")
		fs.StringVar(&f.pin, "pin", "", "")
	}
	fs.StringVar(&f.rules, "rules", string(detect.RulesDefault), "")
	fs.StringVar(&f.format, "format", "text", "")
	fs.BoolVar(&f.showIDs, "show-ids", false, "")
	fs.StringVar(&f.failOn, "fail-on", "", "")
	fs.BoolVar(&f.quiet, "q", false, "")
	fs.BoolVar(&f.quiet, "quiet", false, "")
	fs.StringVar(&f.color, "color", "auto", "")
	fs.BoolVar(&f.discover, "discover", false, "")
	pos, err := parseFlags(e, c, fs, args)
	if err != nil {
		return err
	}
	if name != "shadow" && f.pin == "" {
		return usagef(name, "the following flag is required: -p/--pin")
	}
	rs, ok := detect.ParseRuleSet(f.rules)
	if !ok {
		return usagef(name, "--rules must be default or reference, got %q", sanitize.Text(f.rules))
	}
	if f.format != "text" && f.format != "json" && f.format != "sarif" {
		return usagef(name, "--format must be text, json or sarif, got %q", sanitize.Text(f.format))
	}
	failOn, err := parseFailOn(name, f.failOn)
	if err != nil {
		return err
	}
	color, err := useColor(e, name, f.color)
	if err != nil {
		return err
	}
	if err := oneStdin(name, append(pos, f.pin)...); err != nil {
		return err
	}
	var pn *pin.Pin
	inputs := readAhead(e, name, pos, f.discover)
	if f.pin != "" {
		// The pin's error comes first, as the original's does.
		if pn, err = loadPin(e, f.pin); err != nil {
			inputs()
			return err
		}
	}
	ins, err := inputs()
	if err != nil {
		return err
	}
	if len(ins) > 1 && f.format == "sarif" {
		return usagef(name, "--format sarif reports one file: scan the files one at a time, or use --format json")
	}
	key, err := readScanKey()
	if err != nil {
		return err
	}
	opt := scan.ScanOptions{Rules: rs, Key: key}
	switch name {
	case "diff":
		opt.Classes = []engine.Class{engine.Mutation}
	case "shadow":
		opt.Classes = []engine.Class{engine.Shadow}
	}
	found := false
	for i, in := range ins {
		// Each file is compared with the pin entries it owns (pin.Owned).
		view := pn
		if pn != nil {
			view = pn.Owned(in.Claim(f.pin, len(ins) == 1))
		}
		opt.FileMode, opt.ToolsOnly = in.Mode, in.Kind == service.KindSource
		r := scan.Scan(in.Inv, view, opt)
		if !f.quiet {
			if len(ins) > 1 && f.format == "text" {
				fmt.Fprintf(e.stdout, "%s==> %s <==\n", map[bool]string{true: "\n"}[i > 0], sanitize.Text(in.Path))
			}
			if _, err := e.stdout.Write(render(r, in.Inv, name, f, color)); err != nil {
				return err
			}
		}
		printNotes(e, r.Notes)
		found = found || report.CountedAtLeast(r, failOn) > 0
	}
	if found {
		return errFindings
	}
	return nil
}

func render(r *scan.Report, inv *engine.Inventory, name string, f scanFlags, color bool) []byte {
	switch f.format {
	case "json":
		return report.JSON(r, toolInfo())
	case "sarif":
		return report.SARIF(r, toolInfo())
	}
	opt := report.TextOptions{ShowIDs: f.showIDs, Severity: true, Color: color}
	if name == "scan" {
		return report.Text(r, opt)
	}
	out := report.Lines(r, opt)
	if len(r.Findings) == 0 && r.Rules != detect.RulesReference {
		out = append(out, report.CleanSummary(name, inv)...)
	}
	return out
}

func toolInfo() report.ToolInfo { return report.ToolInfo{Name: "descriptorpin", Version: version} }
