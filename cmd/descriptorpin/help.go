package main

import (
	"embed"
	"fmt"
	"io"
	"sort"
)

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
	fmt.Fprint(w, "\nExit codes: 0 clean, 1 findings present, 2 usage or input error.\nRun 'descriptorpin help <command>' for a command's flags and an example.\n")
}
