package sanitize

import "testing"

func TestText(t *testing.T) {
	tests := map[string]string{
		"plain text, é, 東京, 🚀":           "plain text, é, 東京, 🚀",
		"\x1b[31mred\x1b[0m":             `\x1b[31mred\x1b[0m`,
		"a\rb\nc\td\x07":                 `a\x0db\x0ac\x09d\x07`,
		"\u202eevil\u2066x\u200by\ufeff": `\u202eevil\u2066x\u200by\ufeff`,
		"\u0085\u009b2J":                 `\u0085\u009b2J`,
		"tag\U000E0041\U000E007F":        `tag\U000e0041\U000e007f`,
		"\u2028\u2029\x7f":               `\u2028\u2029\x7f`,
		"bad \xff byte":                  `bad \xff byte`,
		"emoji ❤️ keeps its selector":    "emoji ❤️ keeps its selector",
	}
	for in, want := range tests {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClip(t *testing.T) {
	if got := Clip("héllo wörld", 5); got != "héllo..." {
		t.Errorf("got %q", got)
	}
	if got := Clip("short", 10); got != "short" {
		t.Errorf("got %q", got)
	}
}

func FuzzText(f *testing.F) {
	f.Add("\x1b]8;;http://x\x07link\x1b]8;;\x07")
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		for _, r := range out {
			if NeedsEscape(r) {
				t.Fatalf("Text(%q) left %U raw", s, r)
			}
		}
	})
}
