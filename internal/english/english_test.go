package english

import "testing"

func TestCountSaysTheNumberAndTheWord(t *testing.T) {
	if got := Count(1, "file", "files"); got != "1 file" {
		t.Errorf("Count(1) = %q", got)
	}
	if got := Count(0, "file", "files"); got != "0 files" {
		t.Errorf("Count(0) = %q", got)
	}
}

func TestPluralPicksTheFormForTheCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "tools"}, {1, "tool"}, {2, "tools"}, {-1, "tools"}} {
		if got := Plural(tc.n, "tool", "tools"); got != tc.want {
			t.Errorf("Plural(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
