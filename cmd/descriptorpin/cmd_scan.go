package main

import (
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/report"
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

func runScan(e *env, name string, args []string) error {
	c := lookup(name)
	fs := newFlags(e, c)
	var pinPath, rules, format string
	var showIDs bool
	if name != "shadow" {
		fs.StringVar(&pinPath, "p", "", "")
		fs.StringVar(&pinPath, "pin", "", "")
	}
	fs.StringVar(&rules, "rules", string(detect.RulesDefault), "")
	fs.StringVar(&format, "format", "text", "")
	fs.BoolVar(&showIDs, "show-ids", false, "")
	pos, err := parseFlags(e, c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef(name, "%s takes one inventory file, got %d arguments", name, len(pos))
	}
	if name != "shadow" && pinPath == "" {
		return usagef(name, "the following flag is required: -p/--pin")
	}
	rs, ok := detect.ParseRuleSet(rules)
	if !ok {
		return usagef(name, "--rules must be default or reference, got %q", rules)
	}
	if format != "text" && format != "json" && format != "sarif" {
		return usagef(name, "--format must be text, json or sarif, got %q", format)
	}
	var pin *pin.Pin
	if pinPath != "" {
		// The pin is loaded first, as the original does.
		if pin, err = loadPin(pinPath); err != nil {
			return err
		}
	}
	inv, mode, kind, err := loadInventory(pos[0])
	if err != nil {
		return err
	}
	if pin != nil && kind == service.KindClientConfig {
		pin = pin.ServersOnly()
	}
	opt := scan.ScanOptions{Rules: rs, FileMode: mode}
	switch name {
	case "diff":
		opt.Classes = []engine.Class{engine.Mutation}
	case "shadow":
		opt.Classes = []engine.Class{engine.Shadow}
	}
	r := scan.Scan(inv, pin, opt)
	var out []byte
	switch format {
	case "json":
		out = report.JSON(r, toolInfo())
	case "sarif":
		out = report.SARIF(r, toolInfo())
	default:
		if name == "scan" {
			out = report.Text(r, report.TextOptions{ShowIDs: showIDs})
		} else {
			out = report.Lines(r, report.TextOptions{ShowIDs: showIDs})
		}
	}
	if _, err := e.stdout.Write(out); err != nil {
		return err
	}
	if report.CountedFindings(r) > 0 {
		return errFindings
	}
	return nil
}

func toolInfo() report.ToolInfo { return report.ToolInfo{Name: "descriptorpin", Version: version} }
