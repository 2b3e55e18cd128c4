package main

import (
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
