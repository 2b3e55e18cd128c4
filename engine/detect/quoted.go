package detect

import "sort"

// Quoted examples in a text about injections. A classifier, a red-team
// dataset browser, a gateway's block log or a descriptor linter quotes
// attacks as data ("Examples the model flags as injection: \"Ignore all
// previous instructions…\""). When a text has the words of that
// context (injection, jailbreak, phishing, classify, dataset, lint,
// blocked, treated as data, …), the instruction signals read it with
// its quoted spans ("…", `…`, '…') left out: what the text says in its
// own voice is still read. Character-level signals (hidden Unicode,
// escapes, encoded payloads) still read everything.

var dataCtxBits = func() (b wordBits) {
	for _, w := range []string{"injection", "injections", "jailbreak", "jailbreaks", "phishing", "malicious", "adversarial", "red-team", "classify", "classifier", "detectors", "detector", "flags", "flagged", "blocked", "lint", "moderate", "dataset", "datasets", "corpus", "samples", "lure", "risky", "scanner", "evaluation", "social-engineering", "guardrail", "guardrails", "verdict", "verdicts", "phrases"} {
		b.set(anchorID(w))
	}
	return b
}()

// maskQuoted drops the content of quoted spans from a.norm when the text
// handles injections as data.
func maskQuoted(a *Text) {
	if !dataCtxBits.meets(a.alist) {
		return
	}
	s := a.norm
	out := make([]byte, 0, len(s))
	from := make([]int, 0, len(s))
	var open byte
	dropped := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case open == 0 && (c == '"' || c == '`' || c == '\'' && (i == 0 || !isWordByte(s[i-1])) && i+1 < len(s) && s[i+1] != ' '):
			open = c
		case open != 0 && c == open && (c != '\'' || i+1 == len(s) || !isWordByte(s[i+1])):
			open = 0
		case open != 0:
			dropped = true
			continue
		}
		out = append(out, c)
		from = append(from, i)
	}
	if open != 0 || !dropped {
		return // an unbalanced quote: read the text as it is
	}
	if a.spacedLen > 0 {
		// the letter-spaced run is kept in norm's new offsets: what is
		// left of it, or nothing when it was quoted
		a.spacedI, a.spacedJ = remapSpan(from, a.spacedI, a.spacedJ)
		if a.spacedI == a.spacedJ {
			a.spacedLen = 0
		}
	}
	a.rebuild(out, from)
	anchorWords(a)
}

// remapSpan returns the span of the bytes of [i, j) that survive in a
// rebuilt text whose byte k came from byte from[k].
func remapSpan(from []int, i, j int) (int, int) {
	ni := sort.SearchInts(from, i)
	nj := sort.SearchInts(from, j)
	return ni, nj
}
