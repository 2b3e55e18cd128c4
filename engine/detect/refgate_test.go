package detect

import "testing"

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
	ungated := []func(*Text) (string, string){
		referenceImperativeOpener,
		regexRule(refSecondPerson, ""), regexRule(refToolRef, ""), regexRule(refConcealment, ""),
		regexRule(refPriority, ""), regexRule(refHidden, ""),
	}
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
		s := string(b)
		for i, r := range referenceRules {
			ev1, _ := r.Match(refText(s))
			ev2, _ := ungated[i](&Text{orig: s})
			if ev1 != ev2 {
				t.Fatalf("%s on %q: gated %q, ungated %q", r.Name, s, ev1, ev2)
			}
		}
	}
}
