package detect

import (
	"unicode/utf8"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Signals that read the original characters: hidden Unicode, terminal
// escapes, padding, letter spacing and look-alike names.

// quote shows untrusted text in a detail: clipped, control and invisible
// characters escaped, in single quotes.
func quoteText(s string) string {
	return "'" + sanitize.Text(clipRunes(s, 80)) + "'"
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "..."
}
