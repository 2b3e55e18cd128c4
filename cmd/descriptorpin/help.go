package main

import (
	"embed"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/internal/completion"
)

// helpTopic is a help page that is not a command.
type helpTopic struct {
	name, summary string
	text          func() string
}

var topics = []helpTopic{
	{"config", "the service's config file: where it is, every key, the defaults", configTopic},
}

func topic(name string) *helpTopic {
	for i := range topics {
		if topics[i].name == name {
			return &topics[i]
		}
	}
	return nil
}

// configTopic is help/topic-config.txt with this OS's default path, then
// the commented example config: every key with its default.
func configTopic() string {
	where := "none on this OS (give --config)"
	if p, err := config.DefaultPath(); err == nil {
		where = p
	}
	return strings.Replace(helpText("topic-config"), "{{default_path}}", where, 1) + "\n" + config.Example
}

// helpFiles holds each command's help text and the help topics, as plain
// text files next to the code: docs/manual.md is checked against them.
//
//go:embed help/*.txt
var helpFiles embed.FS

func helpText(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("no help text for " + name) // a build mistake, caught by every test
	}
	return string(b)
}

func writeTopHelp(w io.Writer) {
	fmt.Fprint(w, "descriptorpin pins the approved state of MCP tool descriptors and reports\nevery shape that differs from it.\n\nUsage:\n  descriptorpin <command> [arguments]\n\nCommands:\n")
	sorted := append([]*command(nil), commands...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	for _, c := range sorted {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nHelp topics:\n")
	for _, t := range topics {
		fmt.Fprintf(w, "  %-9s %s\n", t.name, t.summary)
	}
	fmt.Fprint(w, "\nExit codes: 0 clean, 1 findings present, 2 usage or input error.\nRun 'descriptorpin help <command>' for a command's flags and an example.\n")
}

func init() {
	register(&command{name: "completion", summary: "print a shell completion script (bash, zsh or fish)", run: runCompletion})
}

func runCompletion(e *env, args []string) error {
	c := lookup("completion")
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(e.stdout, c.usage)
		return flag.ErrHelp
	}
	if len(args) != 1 {
		return usagef(c.name, "completion takes one shell: %s", strings.Join(completion.Shells, ", "))
	}
	var cmds []completion.Command
	for _, cmd := range commands {
		cc := completion.Command{Name: cmd.name, Summary: cmd.summary, Flags: completion.FlagsFromHelp(cmd.usage)}
		cmds = append(cmds, cc)
	}
	cmds = append(cmds, completion.Command{Name: "help", Summary: "show a command's help or a help topic"})
	var names []string
	for _, t := range topics {
		names = append(names, t.name)
	}
	script, err := completion.Script("descriptorpin", args[0], cmds, names)
	if err != nil {
		return usagef(c.name, "%s", err.Error())
	}
	fmt.Fprint(e.stdout, script)
	return nil
}
