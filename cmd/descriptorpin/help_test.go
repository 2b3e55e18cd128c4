package main

import (
	"os"

	"github.com/descriptorpin/descriptorpin/config"
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// Every 'descriptorpin help X' a help text names is a command or a topic.
func TestEveryHelpReferenceResolves(t *testing.T) {
	ref := regexp.MustCompile(`descriptorpin help ([a-z-]+)`)
	files, _ := fs.Glob(helpFiles, "help/*.txt")
	for _, f := range files {
		data, _ := fs.ReadFile(helpFiles, f)
		for _, m := range ref.FindAllStringSubmatch(string(data), -1) {
			if lookup(m[1]) == nil && topic(m[1]) == nil {
				t.Errorf("%s names 'descriptorpin help %s', which does not exist", f, m[1])
			}
		}
	}
	for _, c := range commands {
		if !strings.HasPrefix(c.usage, "Usage: descriptorpin "+c.name) {
			t.Errorf("help for %s does not start with its synopsis", c.name)
		}
	}
}

// docs/manual.md holds every command's help text and docs/configuration.md
// the config topic and example, verbatim: the docs cannot drift from -h.
func TestDocsCarryTheHelpTexts(t *testing.T) {
	manual, err := os.ReadFile("../../docs/manual.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range commands {
		if !strings.Contains(string(manual), "```text\n"+c.usage+"```") {
			t.Errorf("docs/manual.md lacks the help text of %s, as 'descriptorpin help %s' prints it", c.name, c.name)
		}
	}
	conf, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	head, tail, _ := strings.Cut(helpText("topic-config"), "{{default_path}}")
	for what, want := range map[string]string{"topic start": head, "topic end": strings.TrimRight(tail, "\n"), "example": "```yaml\n" + config.Example + "```"} {
		if !strings.Contains(string(conf), want) {
			t.Errorf("docs/configuration.md lacks the %s of 'descriptorpin help config'", what)
		}
	}
}
