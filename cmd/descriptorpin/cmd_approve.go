package main

import (
	"fmt"
	"sort"

	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/engine/scan"
	"github.com/descriptorpin/descriptorpin/internal/english"
	"github.com/descriptorpin/descriptorpin/service"
)

func init() {
	register(&command{
		name:    "approve",
		summary: "re-approve named tools or accept a finding on purpose",
		run:     runApprove,
	})
}

func runApprove(e *env, args []string) error {
	c := lookup("approve")
	fs := newFlags(e, c)
	var pinPath, by, note, rules string
	var all, yes, quiet, discover bool
	var accept stringList
	fs.StringVar(&pinPath, "p", "", "")
	fs.StringVar(&pinPath, "pin", "", "")
	fs.StringVar(&by, "approved-by", "", "")
	fs.StringVar(&note, "note", "", "")
	fs.BoolVar(&all, "all", false, "")
	fs.BoolVar(&yes, "yes", false, "")
	fs.BoolVar(&quiet, "q", false, "")
	fs.BoolVar(&quiet, "quiet", false, "")
	fs.Var(&accept, "accept", "")
	fs.StringVar(&rules, "rules", string(detect.RulesDefault), "")
	fs.BoolVar(&discover, "discover", false, "")
	pos, err := parseFlags(e, c, fs, args)
	if err != nil {
		return err
	}
	files, keys := service.SplitFiles(pos, all, discover)
	switch {
	case pinPath == "":
		return usagef(c.name, "the following flag is required: -p/--pin")
	case pinPath == stdio:
		return usagef(c.name, "approve rewrites the pin in place: -p cannot be - (standard input)")
	case by == "":
		return usagef(c.name, "the following flag is required: --approved-by")
	case note == "":
		return usagef(c.name, "the following flag is required: --note (say why this is approved)")
	case all && len(keys) > 0:
		return usagef(c.name, "give either KEYs or --all, not both")
	case !all && len(keys) == 0 && len(accept) == 0:
		return usagef(c.name, "nothing to approve: name KEYs, or use --all or --accept")
	}
	rs, ok := detect.ParseRuleSet(rules)
	if !ok {
		return usagef(c.name, "--rules must be default or reference, got %q", rules)
	}
	pn, err := loadPin(e, pinPath)
	if err != nil {
		return err
	}
	ins, err := loadInputs(e, c.name, files, discover)
	if err != nil {
		return err
	}
	if len(ins) > 1 && (len(keys) > 0 || len(accept) > 0) {
		return usagef(c.name, "KEYs and --accept work on one file; --all works on many")
	}
	at, err := approvalTime(e)
	if err != nil {
		return err
	}
	ap := pin.Approval{By: by, Note: note, At: at}
	if pn.Format == pin.Format1 {
		ap.At = ""
		if len(accept) > 0 {
			return &usageError{msg: "a format-1 pin cannot record acceptances", hint: "convert it: descriptorpin pin INVENTORY -o NEW --pin-format 2"}
		}
	}
	var opt pin.Options
	if pn.Format >= pin.Format2 {
		if opt.Key, err = pinKey(e); err != nil {
			return err
		}
	}
	var changed []string
	var r *scan.Report
	for _, in := range ins {
		c := in.Claim(pinPath, len(ins) == 1)
		r = scan.Scan(in.Inv, pn.Owned(c), scan.ScanOptions{Rules: rs, Key: opt.Key})
		if len(ins) > 1 || len(pn.Sources()) > 0 { // a single-file pin stays as it was
			opt.Source = in.Source(pinPath)
		}
		var ch []string
		if all {
			if err = confirmAll(e, r, yes); err != nil {
				return err
			}
			ch, err = pin.ApproveOwned(pn, in.Inv, c, ap, opt) // the other files' entries are kept
		} else if len(keys) > 0 {
			ch, err = pin.ApproveWith(pn, in.Inv, keys, false, c.LaunchOnly, ap, opt)
		}
		if err != nil {
			return usagef("approve", "%s", err.Error())
		}
		changed = append(changed, ch...)
	}
	if len(accept) > 0 {
		// Ids are those of the scan before approving: the ones
		// 'scan --show-ids' showed the person.
		for _, id := range accept {
			what, err := pin.Accept(pn, r.Findings, r.Accepted, id, ap)
			if err != nil {
				return &usageError{msg: err.Error(), hint: "list current ids with: descriptorpin scan " + sanitize.Text(ins[0].Path) + " -p " + sanitize.Text(pinPath) + " --show-ids"}
			}
			changed = append(changed, what)
		}
	}
	if err := writePin(pinPath, pn.Marshal()); err != nil {
		return err
	}
	if quiet {
		return nil
	}
	sort.Strings(changed)
	for _, ch := range changed {
		fmt.Fprintf(e.stdout, "%s\n", sanitize.Text(ch))
	}
	fmt.Fprintf(e.stdout, "updated %s: %d %s\n", sanitize.Text(pinPath), len(changed), english.Plural(len(changed), "change", "changes"))
	return nil
}
