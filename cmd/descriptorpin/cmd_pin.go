package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/english"
	"github.com/descriptorpin/descriptorpin/service"
)

func init() {
	register(&command{
		name:    "pin",
		summary: "write a pin file from inventories or client configs",
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
		return pin.ApprovedAt(time.Unix(n, 0)), nil
	}
	return pin.ApprovedAt(time.Now()), nil
}

func runPin(e *env, args []string) error {
	c := lookup("pin")
	fs := newFlags(e, c)
	var out, by, note string
	var format int
	var force, quiet, discover bool
	fs.StringVar(&out, "o", "", "")
	fs.StringVar(&out, "out", "", "")
	fs.StringVar(&by, "approved-by", pin.DefaultApprover, "")
	fs.StringVar(&note, "note", "", "")
	fs.IntVar(&format, "pin-format", pin.Format2, "")
	fs.BoolVar(&force, "force", false, "")
	fs.BoolVar(&quiet, "q", false, "")
	fs.BoolVar(&quiet, "quiet", false, "")
	fs.BoolVar(&discover, "discover", false, "")
	pos, err := parseFlags(e, c, fs, args)
	if err != nil {
		return err
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
	// Nearly all `pin` allocates stays live until the file is written:
	// collecting less often saves CPU, not peak RSS (docs/benchmarks.md).
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	ins, err := loadInputs(e, c.name, pos, discover)
	if err != nil {
		return err
	}
	if format == pin.Format1 && len(ins) > 1 {
		return &usageError{msg: "a format-1 pin cannot record which file each server came from", hint: "pin several files into a format-2 pin (the default)"}
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
	pn, err := service.BuildPin(ins, out, format, pin.Approval{By: by, Note: note, At: at}, opt, len(ins) > 1 || discover)
	if err != nil {
		return err
	}
	data := pn.Marshal()
	if len(data) > pin.MaxBytes {
		return &usageError{msg: fmt.Sprintf("the pin would be larger than the %d MiB pin cap", pin.MaxBytes>>20), hint: "pin the files in groups, one pin each"}
	}
	if out == stdio {
		return pinToStdout(e, data, pn, quiet)
	}
	if err := writePin(out, data); err != nil {
		return err
	}
	if !quiet {
		writePinned(e.stdout, pn, sanitize.Text(out))
	}
	return nil
}

// pinToStdout is -o -: the pin is the output, the note goes to stderr.
func pinToStdout(e *env, data []byte, pn *pin.Pin, quiet bool) error {
	if _, err := e.stdout.Write(data); err != nil {
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
