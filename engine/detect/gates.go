package detect

import "strings"

// Gates: cheap tests that hold whenever an expression can match (each
// names words every match contains), so the expression runs only on the
// sentences that may hold one. A gate may let through a sentence the
// expression rejects, never the other way: TestGatesHoldWhereTheirExpressionsMatch
// and FuzzGates check that on every text the tests know.

// maySteer holds whenever steerTarget can match: each of its
// alternatives needs the user or someone else, another tool, your
// reply, every request or the system prompt, or an order word after
// this tool ("it first", "this tool again").
func maySteer(t string) bool {
	for _, w := range [...]string{"user", "human", "any", "requester", "approver", "operator", "other ", "your ", "every ", "each ", "system prompt"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	for _, w := range [...]string{" first", " before", " after", " again", " instead"} {
		for off := 0; ; {
			k := strings.Index(t[off:], w)
			if k < 0 {
				break
			}
			k += off
			if h := t[:k]; strings.HasSuffix(h, "it") || strings.HasSuffix(h, "this") || strings.HasSuffix(h, "tool") || strings.HasSuffix(h, "function") {
				return true
			}
			off = k + 1
		}
	}
	return false
}

// omitWords gates mayOmit: every reading holds " out" or " from ".
var omitWords = anySub(" out", " from ")

func mayOmitAt(b *needleSet, t string) bool { return omitWords.at(b) && mayOmit(t) }

// mayOmit holds whenever omitFromReply can match: its first alternative
// needs " out of ", its second "from the" or "from your" (or "out of")
// before the summary, the reply, the answer or the chat.
func mayOmit(t string) bool {
	if strings.Contains(t, " out of ") || strings.Contains(t, " out") && strings.Contains(t, "leave ") {
		return true
	}
	for off := 0; ; {
		k := strings.Index(t[off:], " from ")
		if k < 0 {
			return false
		}
		off += k + len(" from ")
		rest := t[off:]
		switch {
		case strings.HasPrefix(rest, "the "):
			rest = rest[len("the "):]
		case strings.HasPrefix(rest, "your "):
			rest = rest[len("your "):]
		default:
			continue
		}
		for _, w := range [...]string{"summar", "repl", "answer", "chat", "response to the user", "message to the user"} {
			if strings.HasPrefix(rest, w) {
				return true
			}
		}
	}
}
