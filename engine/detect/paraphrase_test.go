package detect

import (
	"os"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
)

// testdata/paraphrase holds one-line tool descriptions written for this
// project after tuning, in voices unlike the tuning sets (polite and
// indirect, non-native, terse CTF style, Italian): every attack line must
// give a POISON finding of medium or more, no benign line any finding.
// "\n" in a line stands for a line break.

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, strings.ReplaceAll(l, `\n`, "\n"))
		}
	}
	return out
}

func TestOwnParaphrases(t *testing.T) {
	for _, l := range readLines(t, "testdata/paraphrase/attacks.txt") {
		if f := poisonOfDescription(t, "s", "some_tool", l, nil); f == nil || f.Severity < engine.Medium {
			t.Errorf("attack not flagged: %q: %s", l, describeFinding(f))
		}
	}
	for _, l := range readLines(t, "testdata/paraphrase/benign.txt") {
		if f := poisonOfDescription(t, "s", "some_tool", l, nil); f != nil {
			t.Errorf("benign flagged: %q: %s", l, describeFinding(f))
		}
	}
}
