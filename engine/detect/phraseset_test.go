package detect

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// phraseSets are the sets the signals use, by name.
var phraseSets = map[string]*phraseSet{
	"overrideObject":   overrideObjectSet,
	"argChange":        argChangeSet,
	"protectiveObject": protectiveObjectSet,
	"presentational":   presentationalSet,
	"sideEffectVerbs":  sideEffectVerbsSet,
}

// TestPhraseSetsMatchTheirExpressions: every set takes the fast path and
// answers what its expression answers, on the signals' examples and on
// texts built from its own phrases with word and non-word neighbours.
func TestPhraseSetsMatchTheirExpressions(t *testing.T) {
	skipUnderRace(t)
	var texts []string
	for _, sg := range defaultSignals {
		texts = append(texts, sg.examples...)
		texts = append(texts, sg.counter...)
	}
	r := rand.New(rand.NewPCG(1, 2))
	edges := []string{"", " ", "a", "_", "9", "'", "-", ".", "é", "A", "x ", " y", "\n"}
	for name, ps := range phraseSets {
		if !ps.fast() {
			t.Errorf("%s: not read as a phrase set", name)
			continue
		}
		var phrases []string
		for _, list := range ps.first {
			phrases = append(phrases, list...)
		}
		for _, p := range phrases {
			for _, l := range edges {
				for _, rt := range edges {
					texts = append(texts, l+p+rt, l+strings.ToUpper(p)+rt, l+p[:len(p)-1]+rt, l+p[1:]+rt)
				}
			}
		}
		for range 2000 {
			var b strings.Builder
			for range 1 + r.IntN(5) {
				b.WriteString(edges[r.IntN(len(edges))])
				p := phrases[r.IntN(len(phrases))]
				if r.IntN(3) == 0 {
					p = p[:r.IntN(len(p))]
				}
				b.WriteString(p)
			}
			texts = append(texts, b.String())
		}
	}
	for name, ps := range phraseSets {
		for _, s := range texts {
			s = strings.ToLower(s)
			if got, want := ps.MatchString(s), ps.re.MatchString(s); got != want {
				t.Errorf("%s: %q: set %v, expression %v", name, s, got, want)
			}
		}
	}
}

// FuzzPhraseSets compares every phrase set with its expression.
func FuzzPhraseSets(f *testing.F) {
	f.Add("ignore the previous instructions")
	f.Add("do not show the card number to the user")
	f.Add("stack trace, raw json")
	f.Add("it was sent and copied; rotation")
	f.Add("call it with dry_run=true instead")
	f.Fuzz(func(t *testing.T, s string) {
		for name, ps := range phraseSets {
			if got, want := ps.MatchString(s), ps.re.MatchString(s); got != want {
				t.Errorf("%s: %q: set %v, expression %v", name, s, got, want)
			}
		}
	})
}
