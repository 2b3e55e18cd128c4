package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/engine/scan"
)

func init() {
	register(&command{
		name:    "approve",
		summary: "re-approve named tools or accept a finding on purpose",
		usage: `Usage: descriptorpin approve INVENTORY -p PIN (KEY... | --all | --accept ID...) --approved-by NAME --note TEXT

Re-pins exactly the named tools ("server/tool") or servers ("server": every
tool of it and its launch config) from the current inventory with a fresh
approval record, and leaves every other entry untouched. A named tool that
is no longer in the inventory is removed from the pin. --all approves every
difference (changed, added and removed tools and servers).

--accept ID records that a person accepts a static finding on purpose (a
stdio transport, a known shadow, or one poison signal of one tool), tied to
the hash of what was accepted: the finding stops being reported until that
changes. Ids come from 'scan --show-ids' or 'scan --format json'.

Flags:
  -p, --pin PIN        the pin file to update (required; written atomically)
  --approved-by NAME   who approves (required)
  --note TEXT          why (required)
  --all                approve every difference
  --accept ID          accept a finding or poison signal (repeatable)
  --rules SET          rule set used to find the ids to accept (default "default")

Example:
  descriptorpin scan inventory.json -p pin.json --show-ids
  descriptorpin approve inventory.json -p pin.json files-local/read_file --approved-by alice --note "reviewed v2.1 wording"
  descriptorpin approve inventory.json -p pin.json --accept 3f2a9c0d1e4b5a67 --approved-by alice --note "local helper, stdio expected"
`,
		run: runApprove,
	})
}

func runApprove(e *env, args []string) error {
	c := lookup("approve")
	fs := newFlags(e, c)
	var pinPath, by, note, rules string
	var all bool
	var accept stringList
	fs.StringVar(&pinPath, "p", "", "")
	fs.StringVar(&pinPath, "pin", "", "")
	fs.StringVar(&by, "approved-by", "", "")
	fs.StringVar(&note, "note", "", "")
	fs.BoolVar(&all, "all", false, "")
	fs.Var(&accept, "accept", "")
	fs.StringVar(&rules, "rules", string(detect.RulesDefault), "")
	pos, err := parseFlags(e, c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef(c.name, "approve needs an inventory file")
	}
	inventory, keys := pos[0], pos[1:]
	switch {
	case pinPath == "":
		return usagef(c.name, "the following flag is required: -p/--pin")
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
	pn, err := loadPin(pinPath)
	if err != nil {
		return err
	}
	inv, _, kind, err := loadInventory(inventory)
	if err != nil {
		return err
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
	var changed []string
	var opt pin.Options
	if pn.Format >= pin.Format2 {
		if opt.Key, err = pinKey(e); err != nil {
			return err
		}
	}
	if all || len(keys) > 0 {
		changed, err = pin.ApproveWith(pn, inv, keys, all, kind == kindClientConfig, ap, opt)
		if err != nil {
			return usagef(c.name, "%s", err.Error())
		}
	}
	if len(accept) > 0 {
		view := pn
		if kind == kindClientConfig {
			view = pn.ServersOnly()
		}
		r := scan.Scan(inv, view, scan.ScanOptions{Rules: rs, Key: opt.Key})
		for _, id := range accept {
			what, err := pin.Accept(pn, r.Findings, r.Accepted, id, ap)
			if err != nil {
				return &usageError{msg: err.Error(), hint: "list current ids with: descriptorpin scan " + sanitize.Text(inventory) + " -p " + sanitize.Text(pinPath) + " --show-ids"}
			}
			changed = append(changed, what)
		}
	}
	if err := writeAtomic(pinPath, pn.Marshal(), 0o644); err != nil {
		return err
	}
	sort.Strings(changed)
	for _, ch := range changed {
		fmt.Fprintf(e.stdout, "%s\n", sanitize.Text(ch))
	}
	fmt.Fprintf(e.stdout, "updated %s: %d %s\n", sanitize.Text(pinPath), len(changed), strings.TrimSpace(map[bool]string{true: "change", false: "changes"}[len(changed) == 1]))
	return nil
}
