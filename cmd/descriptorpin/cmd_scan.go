package main

import (
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
	showIDs, quiet                    bool
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
	pos, err := parseFlags(e, c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef(name, "%s takes one inventory file, got %d arguments", name, len(pos))
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
	if err := oneStdin(name, f.pin, pos[0]); err != nil {
		return err
	}
	var pn *pin.Pin
	if f.pin != "" {
		// The pin is loaded first, as the original does.
		if pn, err = loadPin(e, f.pin); err != nil {
			return err
		}
	}
	inv, mode, kind, err := loadInventory(e, pos[0])
	if err != nil {
		return err
	}
	if pn != nil && kind == service.KindClientConfig {
		pn = pn.ServersOnly()
	}
	key, err := readScanKey()
	if err != nil {
		return err
	}
	opt := scan.ScanOptions{Rules: rs, FileMode: mode, Key: key}
	switch name {
	case "diff":
		opt.Classes = []engine.Class{engine.Mutation}
	case "shadow":
		opt.Classes = []engine.Class{engine.Shadow}
	}
	r := scan.Scan(inv, pn, opt)
	if !f.quiet {
		if _, err := e.stdout.Write(render(r, inv, name, f, color)); err != nil {
			return err
		}
	}
	printNotes(e, r.Notes)
	if report.CountedAtLeast(r, failOn) > 0 {
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
