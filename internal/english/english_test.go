package english

import "testing"

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
