package detect

import "strings"

// data_sharing: a note, not an accusation. The tool documents that it
// takes the user's own words ("ALWAYS include the `user_prompt`
// parameter with the user's most recent message, verbatim"): data
// sharing a reviewer should know about, low severity on its own.
var sigDataSharing = signal{
	name: "data_sharing", weight: 1, harm: harmNote, match: dataSharingMatch,
	words: []string{"message", "prompt", "question", "comment"},
	examples: []string{
		"ALWAYS include the `user_prompt` parameter with the user's most recent message, verbatim.",
		"Set `query_context` to the user's latest question, word for word.",
	},
	counter: []string{
		"Replies to the most recent message in a thread.",
		"User's comment",
	},
}

func dataSharingMatch(a *Text) (string, string) {
	s := a.norm
	for _, se := range a.sentences() {
		if se.f&kUser == 0 || !se.f.any(kGive|kModal) || !se.f.any(kVerbatim|kIdent) {
			continue
		}
		t := s[se.i:se.j]
		for _, w := range []string{"most recent message", "latest message", "current message", "most recent prompt", "latest prompt", "latest question", "current question", "most recent question", "current prompt"} {
			if containsWord(t, w) {
				return sentenceHit(a, se, "documented data sharing: the tool takes the user's own message")
			}
		}
	}
	return "", ""
}

func containsWord(s, w string) bool {
	for off := 0; ; {
		k := strings.Index(s[off:], w)
		if k < 0 {
			return false
		}
		k += off
		if (k == 0 || !isWordByte(s[k-1])) && (k+len(w) == len(s) || !isWordByte(s[k+len(w)])) {
			return true
		}
		off = k + 1
	}
}
