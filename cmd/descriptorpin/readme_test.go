package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeSample is a README block the test keeps true: a marker naming the
// command, then a console block whose first line is the command and whose
// rest is what it prints.
var readmeSample = regexp.MustCompile("(?s)<!-- sample: ([^>]*?) -->\n```console\n\\$ descriptorpin [^\n]*\n(.*?)```")

// The README's sample output is the real output of the command it shows,
// run from the repository root: a newcomer sees what they will get. go
// test -run TestReadmeSampleIsRealOutput -update rewrites it.
func TestReadmeSampleIsRealOutput(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ms := readmeSample.FindAllSubmatchIndex(readme, -1)
	if len(ms) == 0 {
		t.Fatal("README.md has no '<!-- sample: ... -->' block")
	}
	var out bytes.Buffer
	last := 0
	for _, m := range ms {
		args := strings.Fields(string(readme[m[2]:m[3]]))
		cmd := exec.Command(filepath.Join(binDir, "descriptorpin"), args...)
		cmd.Dir = filepath.Join("..", "..")
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		_ = cmd.Run() // findings are exit 1: the output is what counts
		got := stdout.String()
		if want := string(readme[m[4]:m[5]]); got != want && !*update {
			t.Errorf("README.md's sample of 'descriptorpin %s' is not what it prints:\n--- README\n%s--- real\n%s", strings.Join(args, " "), want, got)
		}
		out.Write(readme[last:m[4]])
		out.WriteString(got)
		last = m[5]
	}
	out.Write(readme[last:])
	if *update {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
