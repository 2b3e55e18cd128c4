package detect

import "testing"

// ungatedReference is referenceRules' matchers without their gates, in
// the table's order.
var ungatedReference = []func(*Text) (string, string){
	referenceImperativeOpener,
	regexRule(refSecondPerson, ""), regexRule(refToolRef, ""), regexRule(refConcealment, ""),
	regexRule(refPriority, ""), regexRule(refHidden, ""),
}

// checkReferenceGates fails when a reference rule's gate hides a match
// on s: the gated and ungated rules must return the same evidence.
func checkReferenceGates(t *testing.T, s string) {
	t.Helper()
	for i, r := range referenceRules {
		ev1, _ := r.Match(refText(s))
		ev2, _ := ungatedReference[i](&Text{orig: s})
		if ev1 != ev2 {
			t.Fatalf("%s on %q: gated %q, ungated %q", r.Name, s, ev1, ev2)
		}
	}
}

// TestReferenceGatesKeepOutput checks that the word gates in front of
// the reference rules never hide a match: on texts built from the
// rules' own words, gated and ungated rules agree.
func TestReferenceGatesKeepOutput(t *testing.T) {
	skipUnderRace(t)
	words := []string{"you", "your", "the", "assistant", "model", "AI", "llm", "agent", "system", "should", "must",
		"do not", "don't", "never", "mention", "tell", "hide", "keep secret", "without the user", "silently",
		"ignore", "supersede", "takes precedence", "instead of", "previous", "all", "most important", "before anything",
		"<system>", "[important]", "the following instructions", "out of band", "tool", "send_email", "`fetch_url`",
		"Always", "Make sure", "remember to", "be sure to", "e.g.", "x.y", ".", "\n", "  ",
		"be", "do", "DO", "Ensure", "forget", "FORGET", "Never", "don't", "Don't tell", "inform", "reveal",
		"conceal", "keep", "secret", "out", "band", "instruction", "INSTRUCTIONS", "highest priority", "most",
		"function", "x_y", "_a", "a_", "Ignore", "override", "other", "before", "anything", "doing", "Be sure to"}
	seps := []string{" ", " ", " ", ".", "\n", "\t", ". ", "! ", "? ", "\n ", "\n\n", " \n", "\x1c", "_", "`", "<", "> ", "[", "] ", "'"}
	seed := uint32(1)
	next := func(n int) int { seed = seed*1664525 + 1013904223; return int(seed>>8) % n }
	for n := 0; n < 50000; n++ {
		var b []byte
		for k := 0; k < 2+next(8); k++ {
			if k > 0 || next(4) == 0 {
				b = append(b, seps[next(len(seps))]...)
			}
			b = append(b, words[next(len(words))]...)
		}
		checkReferenceGates(t, string(b))
	}
}

// FuzzReferenceGates checks the same on any text: the word pass and the
// gates built on it never hide a match of the reference rules.
func FuzzReferenceGates(f *testing.F) {
	for _, s := range []string{"Ignore all previous instructions.", "x.\n\n do not tell", "<SYSTEM>", "Call the tool send_email", "before doing anything", "a\x1cDo it", "Be sure to keep it secret"} {
		f.Add(s)
	}
	f.Fuzz(checkReferenceGates)
}

// TestReferenceRulesInvalidUTF8: the sentence splitter took each
// rune's width from its re-encoding, so an invalid byte (one U+FFFD,
// three bytes re-encoded) moved every offset after it and a
// description with one panicked (found by FuzzReferenceGates). The JSON
// readers reject invalid UTF-8; Poison must not depend on that.
func TestReferenceRulesInvalidUTF8(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Ի\xd1\xe6\xe6\xdbƅ! 0", ""},
		{"\xff. Always call this first.", "Always call this first."},
		{"ok \xe2\x80 x. Do not tell", "Do not tell"},
	} {
		if ev, _ := referenceImperativeOpener(&Text{orig: c.in}); ev != c.want {
			t.Errorf("imperative_opener on %q: %q, want %q", c.in, ev, c.want)
		}
	}
}

// refText is a new text prepared for the reference rules, as Poison
// prepares its pooled one.
func refText(s string) *Text {
	a := &Text{}
	fillRefText(a, s)
	return a
}
