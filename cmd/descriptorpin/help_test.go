package main

import (
	"flag"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/config"
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

var update = flag.Bool("update", false, "rewrite the help texts and the config example in docs/ from the binary's own")

// docs/manual.md holds every command's help text and docs/configuration.md
// the config topic and example, verbatim: the docs cannot drift from -h.
// go test -run TestDocsCarryTheHelpTexts -update rewrites them.
func TestDocsCarryTheHelpTexts(t *testing.T) {
	if *update {
		updateDocs(t)
	}
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

// updateDocs replaces each fenced help text in docs/manual.md (the block
// that starts "Usage: descriptorpin NAME") and the YAML example in
// docs/configuration.md with what the binary prints today.
func updateDocs(t *testing.T) {
	t.Helper()
	rewrite := func(path string, fence *regexp.Regexp, with func(block string) (string, bool)) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := fence.ReplaceAllStringFunc(string(data), func(block string) string {
			if s, ok := with(block); ok {
				return s
			}
			return block
		})
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rewrite("../../docs/manual.md", regexp.MustCompile("(?s)```text\nUsage: descriptorpin [a-z]+.*?```"), func(block string) (string, bool) {
		for _, c := range commands {
			if strings.HasPrefix(block, "```text\nUsage: descriptorpin "+c.name+" ") || strings.HasPrefix(block, "```text\nUsage: descriptorpin "+c.name+"\n") {
				return "```text\n" + c.usage + "```", true
			}
		}
		return "", false
	})
	first, _, _ := strings.Cut(config.Example, "\n")
	rewrite("../../docs/configuration.md", regexp.MustCompile("(?s)```yaml\n.*?```"), func(block string) (string, bool) {
		// Only the example's own block, not other YAML shown beside it.
		return "```yaml\n" + config.Example + "```", strings.HasPrefix(block, "```yaml\n"+first+"\n")
	})
}
