package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/cliflag"
	"github.com/descriptorpin/descriptorpin/service"
)

// Exit codes. Nothing else exits.
const (
	exitClean    = 0
	exitFindings = 1
	exitUsage    = 2 // usage, input and config errors: a restart cannot fix them
	exitRuntime  = 3 // a runtime failure of the service: a service manager restarts it
)

// errFindings is returned after a report with findings has been written.
var errFindings = errors.New("findings present")

// usageError is a mistake in how the command was called.
type usageError struct {
	cmd  string
	msg  string
	hint string
}

func (e *usageError) Error() string { return e.msg }

func usagef(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, args...)}
}

// env is what a subcommand sees of the process.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

type command struct {
	name    string
	summary string
	usage   string // full help text (help/NAME.txt): synopsis, description, example
	run     func(e *env, args []string) error
}

var commands []*command

func register(c *command) {
	c.usage = helpText(c.name)
	commands = append(commands, c)
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// run is the whole program: it dispatches to a subcommand and maps its
// error to an exit code in one place.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, getenv: osGetenv}
	return exitCode(dispatch(e, args), stderr)
}

func dispatch(e *env, args []string) error {
	if len(args) == 0 {
		writeTopHelp(e.stderr)
		return usagef("", "no command given")
	}
	name := args[0]
	switch name {
	case "-h", "--help", "-help", "help":
		if len(args) > 1 {
			if c := lookup(args[1]); c != nil {
				fmt.Fprint(e.stdout, c.usage)
				return nil
			}
			if t := topic(args[1]); t != nil {
				fmt.Fprint(e.stdout, t.text())
				return nil
			}
			return &usageError{msg: fmt.Sprintf("no help for %q: not a command or a help topic", sanitize.Text(args[1])),
				hint: "run 'descriptorpin help' for the commands and the topics"}
		}
		writeTopHelp(e.stdout)
		return nil
	case "--version", "-version":
		name = "version"
	}
	c := lookup(name)
	if c == nil {
		return &usageError{msg: fmt.Sprintf("unknown command %q", sanitize.Text(name)), hint: "run 'descriptorpin help' for the list of commands"}
	}
	return c.run(e, args[1:])
}

// exitCode is the one place errors become exit codes.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitClean
	}
	if errors.Is(err, errFindings) || errors.Is(err, errSinksFailed) {
		return exitFindings
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitClean
	}
	fmt.Fprintf(stderr, "descriptorpin: error: %s\n", lowerFirst(err.Error()))
	var ue *usageError
	if errors.As(err, &ue) {
		switch {
		case ue.hint != "":
			fmt.Fprintf(stderr, "hint: %s\n", ue.hint)
		case ue.cmd != "":
			fmt.Fprintf(stderr, "hint: run 'descriptorpin help %s' for usage\n", ue.cmd)
		}
	}
	var ie *engine.InputError
	if errors.As(err, &ie) && errors.Is(err, pin.ErrTampered) {
		fmt.Fprintln(stderr, "hint: the pin was edited by hand or damaged; restore it from version control or re-create it with 'descriptorpin pin'")
	}
	if errors.Is(err, service.ErrRuntime) {
		return exitRuntime
	}
	return exitUsage
}

func lowerFirst(s string) string {
	s = strings.TrimSuffix(s, ".")
	if s == "" {
		return s
	}
	// Keep the case of a leading file name or identifier; lower a plain
	// capitalised word.
	if len(s) > 1 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'a' && s[1] <= 'z' {
		return strings.ToLower(s[:1]) + s[1:]
	}
	return s
}

// newFlags makes a flag set that reports errors instead of exiting and
// prints the command's help text for -h.
func newFlags(e *env, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses flags and positionals in any order (cliflag.Parse),
// printing the command's help for -h.
func parseFlags(e *env, c *command, fs *flag.FlagSet, args []string) ([]string, error) {
	pos, err := cliflag.Parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(e.stdout, c.usage)
		return nil, flag.ErrHelp
	}
	if err != nil {
		return nil, usagef(c.name, "%s", sanitize.Text(err.Error()))
	}
	return pos, nil
}

// stringList is a repeatable flag.
type stringList = cliflag.List
