package detect

import (
	"regexp"
	"strings"
)

// The English instruction families of the default rules. Every pattern
// reads normalised text (lower case, one space between words, see
// normalize.go); evidence is mapped back to the original.
//
// Two habits keep ordinary documentation clean:
//
//   - verbs that give an order are matched in their base form ("send",
//     "read", "paste"), so a sentence that describes the tool in the third
//     person ("Sends the message", "Reads ~/.ssh/config") is not an order;
//   - each family needs its object, not just its verb: "ignore" needs
//     instructions or rules, "do not tell" needs the user, "send" needs a
//     concrete address and something worth stealing.

// re compiles a pattern in which the placeholders below stand for shared
// alternations.
func re(p string) *regexp.Regexp {
	return regexp.MustCompile(expand.Replace(p))
}

var expand = strings.NewReplacer(
	// people the model answers to
	"{USER}", `(?:the user|the users|users?|the human|humans?|the person|anyone|anybody|the requester|the approver|the operator|the reviewer|them|him|her)`,
	// identifier-shaped tool names: snake_case, dotted or kebab-case
	"{IDENT}", "[`\"']?[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+[`\"']?",
	// up to N words of the same sentence
	"{W}", `[^.!?\n]`,
	// base-form verbs that ask the model to hand data over
	"{GIVE}", `(?:read|open|load|cat|include|paste|copy|attach|upload|send|put|pass|provide|fetch|get|grab|collect|extract|dump|print|insert|add|append|embed|take|give|share|forward|output|type|enter|supply|access|record|store|write|fill|list|hash|encode|use|using|sign in|log in)`,
)

// sentenceOf returns the bounds of the sentence of s around [i, j).
func sentenceOf(s string, i, j int) (int, int) {
	start := 0
	for k := i - 1; k >= 0; k-- {
		c := s[k]
		if c == '\n' || (c == '.' || c == '!' || c == '?' || c == ';') && k+1 < len(s) && s[k+1] == ' ' {
			start = k + 1
			break
		}
	}
	end := len(s)
	for k := j; k < len(s); k++ {
		c := s[k]
		if c == '\n' || (c == '.' || c == '!' || c == '?' || c == ';') && (k+1 == len(s) || s[k+1] == ' ') {
			end = k + 1
			break
		}
	}
	return start, end
}

// hit maps a match in a.norm to the signal result: the original text and
// the detail with the original quoted.
func hit(a *Text, i, j int, detail string) (string, string) {
	ev := strings.TrimLeft(a.original(i, j), ".,;:!? ")
	if ev == "" {
		return "", ""
	}
	if detail != "" {
		detail += ": " + quoteText(ev)
	}
	return clipRunes(ev, 200), detail
}
