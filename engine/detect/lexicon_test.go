package detect

import (
	"strings"
	"testing"
)

// TestLexiconPhrasePrefixes checks what Text.sentences relies on to look
// each two-word phrase up once: a two-word key that starts a longer
// phrase has a first word that starts one too.
func TestLexiconPhrasePrefixes(t *testing.T) {
	for k, f := range lexicon {
		i := strings.IndexByte(k, ' ')
		if f&kPhrase == 0 || i <= 0 || strings.Contains(k[i+1:], " ") {
			continue
		}
		if lexicon[k[:i]]&kPhrase == 0 {
			t.Errorf("%q starts a phrase but %q does not", k, k[:i])
		}
	}
}
