package completion

import (
	"reflect"
	"strings"
	"testing"
)

func TestFlagsFromHelpTakesSynopsisAndFlagLinesOnly(t *testing.T) {
	help := "Usage: prog scan INV -p PIN [--rules SET] [-q]\n\nProse naming approve --accept.\n\nFlags:\n  -p, --pin PIN     the pin (see --other)\n  -q/--quiet        quiet\n\nExample:\n  prog scan x --example\n"
	got := FlagsFromHelp(help)
	want := []string{"-p", "--rules", "-q", "--pin", "--quiet"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestScriptForEachShell(t *testing.T) {
	cmds := []Command{{Name: "scan", Summary: "it's a scan", Flags: []string{"--pin", "-p"}}}
	for shell, want := range map[string]string{
		"bash": `scan) flags="--pin -p" ;;`,
		"zsh":  "#compdef prog",
		"fish": `-a scan -d 'it\'s a scan'`,
	} {
		s, err := Script("prog", shell, cmds, []string{"config"})
		if err != nil || !strings.Contains(s, want) {
			t.Errorf("%s: %v\n%s", shell, err, s)
		}
	}
	if _, err := Script("prog", "tcsh", cmds, nil); err == nil {
		t.Error("tcsh: no error")
	}
}
