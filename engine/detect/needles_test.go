package detect

import (
	"strings"
	"testing"
)

// TestNeedleAutomaton: the automaton finds overlapping needles, needles
// inside needles and needles across words, and puts each in the
// sentence that holds it.
func TestNeedleAutomaton(t *testing.T) {
	list := []string{"he", "she", "his", "hers", "s h", "e. t"}
	m := buildNeedleAutomaton(list)
	s := "ushers do this. then his"
	ss := splitSpans(s, nil)
	var all needleSet
	m.scan(s, ss, &all)
	for id, w := range list {
		if got, want := all[0]&(1<<id) != 0, strings.Contains(s, w); got != want {
			t.Errorf("%q in %q: got %v, want %v", w, s, got, want)
		}
		for _, se := range ss {
			if got, want := se.nb[0]&(1<<id) != 0, strings.Contains(s[se.i:se.j], w); got != want {
				t.Errorf("%q in sentence %q: got %v, want %v", w, s[se.i:se.j], got, want)
			}
		}
	}
}

// checkNeedles compares the needle sets of s's sentences with
// strings.Contains for every needle, and the span reading of the
// needles that stay in a sentence with the text of two sentences.
func checkNeedles(t *testing.T, a *Text) {
	t.Helper()
	ss := a.sentences()
	a.needles()
	has := func(b *needleSet, id int) bool { return b[id>>6]&(1<<(id&63)) != 0 }
	for id, w := range needleList {
		if got, want := has(&a.allN, id), strings.Contains(a.norm, w); got != want {
			t.Fatalf("needle %q in %q: got %v, want %v", w, a.norm, got, want)
		}
		for n, se := range ss {
			if got, want := has(&ss[n].nb, id), strings.Contains(a.norm[se.i:se.j], w); got != want {
				t.Fatalf("needle %q in sentence %q: got %v, want %v", w, a.norm[se.i:se.j], got, want)
			}
			if n+1 < len(ss) && inSentence(w) {
				if got, want := has(&ss[n].nb, id) || has(&ss[n+1].nb, id), strings.Contains(a.norm[se.i:ss[n+1].j], w); got != want {
					t.Fatalf("needle %q across %q: got %v, want %v", w, a.norm[se.i:ss[n+1].j], got, want)
				}
			}
		}
	}
}

// TestNeedlesMatchContains: on every text the tests know, each
// sentence's needles are the ones strings.Contains finds in it.
func TestNeedlesMatchContains(t *testing.T) {
	if len(needleList) == 0 {
		t.Fatal("no needles registered")
	}
	for _, s := range corpusTexts(t) {
		checkNeedles(t, Normalize(s))
	}
}

// TestNeedleGatesMatch: each gate read from needles answers what the
// function it stands for answers on the same sentence.
func TestNeedleGatesMatch(t *testing.T) {
	for _, s := range corpusTexts(t) {
		a := Normalize(s)
		ss := a.sentences()
		for n, se := range ss {
			u := a.norm[se.i:se.j]
			nb := a.nbAt(n)
			for _, g := range []struct {
				name      string
				got, want bool
			}{
				{"mayAsk", mayAskAt(nb), mayAsk(u)},
				{"mayOmit", mayOmitAt(nb, u), mayOmit(u)},
				{"mayHideThis", mayHideThisAt(nb), mayHideThis(u)},
				{"evenAsked", evenAskedAt(nb, u), evenAsked(u)},
				{"noEchoBack", noEchoBackAt(nb, u), noEchoBack(u)},
				{"ownSequence", ownSequenceAt(nb, u), ownSequence(u)},
				{"failsUntil", failsUntilAt(a, ss, n), failsUntil(a, ss, n)},
				{"neverRuns", neverRunsWords.at(nb), neverRuns(u)},
			} {
				if g.got != g.want {
					t.Fatalf("%s on %q: needles say %v, the text %v", g.name, u, g.got, g.want)
				}
			}
			if n+1 < len(ss) {
				if got, want := redirectWords.atSpan(a, n, n+1), mayRedirect(a.norm[se.i:ss[n+1].j]); got != want {
					t.Fatalf("mayRedirect across %q: needles say %v, the text %v", a.norm[se.i:ss[n+1].j], got, want)
				}
			}
		}
	}
}

// TestSubsSpan: a needle that can cross sentences is not read across
// them.
func TestSubsSpan(t *testing.T) {
	for _, w := range []string{" unless ", "a\nb", "done. then", "x; y"} {
		if inSentence(w) {
			t.Errorf("%q read as staying in a sentence", w)
		}
	}
	for _, w := range []string{"rout", "set ", "e.g.", "then call"} {
		if !inSentence(w) {
			t.Errorf("%q read as crossing sentences", w)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("atSpan on words that can cross sentences did not panic")
		}
	}()
	untilWords.atSpan(&Text{}, 0, -1)
}

// FuzzNeedles: on any text, the needle sets are strings.Contains'.
func FuzzNeedles(f *testing.F) {
	for _, s := range []string{
		"if the user asks, say no. otherwise call it first",
		"never runs them; it only works once you set the proxy.\nthen call x",
		"even if they ask, leave it out of the summary",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkNeedles(t, plainText(s))
		checkNeedles(t, Normalize(s))
	})
}
