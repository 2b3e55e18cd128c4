package main

import (
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/report"
	"github.com/descriptorpin/descriptorpin/engine/scan"
)

func init() {
	register(&command{
		name:    "scan",
		summary: "report all finding classes against a pin",
		usage: `Usage: descriptorpin scan INVENTORY -p PIN [--rules default|reference] [--format text|json|sarif] [--show-ids]

Compares the inventory with the pin and runs every detector: MUTATION (a
pinned descriptor changed), ADDED, REMOVED, SHADOW (one tool name on two
servers), POISON (instruction-shaped text in anything the model reads) and
TRANSPORT (a launch that deserves review).

Flags:
  -p, --pin PIN        the pin file (required)
  --rules SET          default (every text the model reads, fewer false
                       positives) or reference (the original's exact rules)
  --format FORMAT      text (default), json or sarif
  --show-ids           show each finding's stable id (for approve --accept)

Exit status: 0 clean, 1 findings, 2 usage or input error.

Example:
  descriptorpin scan samples/inventory_mutated.json -p samples/pin.json
`,
		run: func(e *env, args []string) error { return runScan(e, "scan", args) },
	})
	register(&command{
		name:    "diff",
		summary: "report rug-pull mutations only",
		usage: `Usage: descriptorpin diff INVENTORY -p PIN [--rules default|reference] [--format text|json|sarif] [--show-ids]

Reports only MUTATION findings: pinned tools whose descriptor changed, one
block per changed field (and, inside schemas, per JSON path).

Example:
  descriptorpin diff samples/inventory_mutated.json -p samples/pin.json
`,
		run: func(e *env, args []string) error { return runScan(e, "diff", args) },
	})
	register(&command{
		name:    "shadow",
		summary: "report cross-server tool name collisions only",
		usage: `Usage: descriptorpin shadow INVENTORY [--rules default|reference] [--format text|json|sarif] [--show-ids]

Reports tool names claimed by two or more servers. Needs no pin.

Example:
  descriptorpin shadow samples/inventory_mutated.json
`,
		run: func(e *env, args []string) error { return runScan(e, "shadow", args) },
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
	if pin != nil && kind == kindClientConfig {
		pin = pin.ServersOnly()
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
	printNotes(e, r.Notes)
	if report.CountedFindings(r) > 0 {
		return errFindings
	}
	return nil
}

func toolInfo() report.ToolInfo { return report.ToolInfo{Name: "descriptorpin", Version: version} }
