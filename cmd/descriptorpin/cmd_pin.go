package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/english"
)

func init() {
	register(&command{
		name:    "pin",
		summary: "write a pin file from an inventory",
		run:     runPin,
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
	var force, quiet bool
	fs.StringVar(&out, "o", "", "")
	fs.StringVar(&out, "out", "", "")
	fs.StringVar(&by, "approved-by", pin.DefaultApprover, "")
	fs.StringVar(&note, "note", "", "")
	fs.IntVar(&format, "pin-format", pin.Format2, "")
	fs.BoolVar(&force, "force", false, "")
	fs.BoolVar(&quiet, "q", false, "")
	fs.BoolVar(&quiet, "quiet", false, "")
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
	if _, err := os.Lstat(out); err == nil && !force && out != stdio {
		return &usageError{msg: fmt.Sprintf("%q already exists", sanitize.Text(out)),
			hint: "use 'descriptorpin approve' to re-approve changed tools, or --force to replace the pin and its approvals"}
	}
	inv, _, _, err := loadInventory(e, pos[0])
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
	if out == stdio {
		return pinToStdout(e, pn, quiet)
	}
	if err := writePin(out, pn.Marshal()); err != nil {
		return err
	}
	if !quiet {
		writePinned(e.stdout, pn, sanitize.Text(out))
	}
	return nil
}

// pinToStdout is -o -: the pin is the output, the note goes to stderr.
func pinToStdout(e *env, pn *pin.Pin, quiet bool) error {
	if _, err := e.stdout.Write(pn.Marshal()); err != nil {
		return err
	}
	if !quiet {
		writePinned(e.stderr, pn, "standard output")
	}
	return nil
}

func writePinned(w io.Writer, pn *pin.Pin, dest string) {
	if pn.Format == pin.Format1 {
		fmt.Fprintf(w, "pinned %d %s to %s\n", len(pn.Tools), english.Plural(len(pn.Tools), "tool", "tools"), dest)
		return
	}
	fmt.Fprintf(w, "pinned %d %s and %d %s to %s\n", len(pn.Tools), english.Plural(len(pn.Tools), "tool", "tools"), len(pn.Servers), english.Plural(len(pn.Servers), "server", "servers"), dest)
}
