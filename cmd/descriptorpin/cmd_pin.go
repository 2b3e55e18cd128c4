package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

func init() {
	register(&command{
		name:    "pin",
		summary: "write a pin file from an inventory",
		usage: `Usage: descriptorpin pin INVENTORY -o PIN [--approved-by NAME] [--note TEXT] [--pin-format 1|2] [--force]

Records the approved state of every tool (a canonical hash and the canonical
descriptor) and, in format 2, every server's launch config. The pin accepts
nothing by itself: a scan right after it reports the same static findings.

Flags:
  -o, --out PIN        path to write the pin file (required)
  --approved-by NAME   approver identity recorded per entry (default "[UNSPECIFIED]")
  --note TEXT          approval note recorded per entry
  --pin-format 1|2     1 is the original's format, byte-compatible; 2 (default)
                       covers every descriptor field but _meta, records launch
                       configs, approval times and acceptances
  --force              replace an existing pin file

The approval time is now, or SOURCE_DATE_EPOCH when set (reproducible pins).

Example:
  descriptorpin pin samples/inventory_clean.json -o pin.json --approved-by alice@example.com --note "initial review"
`,
		run: runPin,
	})
}

// approvalTime is now, or SOURCE_DATE_EPOCH for reproducible output.
func approvalTime(e *env) (string, error) {
	if v := e.getenv("SOURCE_DATE_EPOCH"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return "", usagef("", "SOURCE_DATE_EPOCH %q is not a Unix time", sanitize.Text(v))
		}
		return time.Unix(n, 0).UTC().Format(time.RFC3339), nil
	}
	return time.Now().UTC().Format(time.RFC3339), nil
}

func runPin(e *env, args []string) error {
	c := lookup("pin")
	fs := newFlags(e, c)
	var out, by, note string
	var format int
	var force bool
	fs.StringVar(&out, "o", "", "")
	fs.StringVar(&out, "out", "", "")
	fs.StringVar(&by, "approved-by", pin.DefaultApprover, "")
	fs.StringVar(&note, "note", "", "")
	fs.IntVar(&format, "pin-format", pin.Format2, "")
	fs.BoolVar(&force, "force", false, "")
	pos, err := parseFlags(e, c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef(c.name, "pin takes one inventory file, got %d arguments", len(pos))
	}
	if out == "" {
		return usagef(c.name, "the following flag is required: -o/--out")
	}
	if format != pin.Format1 && format != pin.Format2 {
		return usagef(c.name, "--pin-format must be 1 or 2, got %d", format)
	}
	if _, err := os.Lstat(out); err == nil && !force {
		return &usageError{msg: fmt.Sprintf("%q already exists", sanitize.Text(out)),
			hint: "use 'descriptorpin approve' to re-approve changed tools, or --force to replace the pin and its approvals"}
	}
	inv, _, _, err := loadInventory(pos[0])
	if err != nil {
		return err
	}
	at, err := approvalTime(e)
	if err != nil {
		return err
	}
	var opt pin.Options
	if format >= pin.Format2 {
		if opt.Key, err = pinKey(e); err != nil {
			return err
		}
	}
	pn, err := pin.BuildWith(inv, format, pin.Approval{By: by, Note: note, At: at}, opt)
	if err != nil {
		return err
	}
	if err := writeAtomic(out, pn.Marshal(), 0o644); err != nil {
		return err
	}
	if format == pin.Format1 {
		fmt.Fprintf(e.stdout, "pinned %d tools to %s\n", len(pn.Tools), sanitize.Text(out))
	} else {
		fmt.Fprintf(e.stdout, "pinned %d tools and %d servers to %s\n", len(pn.Tools), len(pn.Servers), sanitize.Text(out))
	}
	return nil
}
