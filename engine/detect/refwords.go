package detect

// The reference rules are case-insensitive regular expressions with
// bounded gaps, and most texts hold none of their words. For an ASCII
// text, where (?i) folding is plain ASCII folding and \b is the edge of
// a run of [0-9A-Za-z_], one pass splits the text into such runs and
// sets a bit for each of the rules' words it meets (refWords). Each rule
// then tests, before its expression runs, words every one of its
// matches must hold. The gates only skip work: TestReferenceGatesKeepOutput
// and the conformance tool check the output is unchanged. Non-ASCII
// texts skip the gates.

// The words the reference expressions are built from, one bit each.
const (
	rwYou uint64 = 1 << iota
	rwYour
	rwAssistant
	rwModel
	rwAI
	rwLLM
	rwAgent
	rwSystem
	rwShould
	rwMust
	rwTool
	rwFunction
	rwDo
	rwNot
	rwDon
	rwNever
	rwMention
	rwTell
	rwReveal
	rwDisclose
	rwShow
	rwInform
	rwHide
	rwConceal
	rwKeep
	rwSecret
	rwWithout
	rwUser
	rwSilently
	rwIgnore
	rwDisregard
	rwOverride
	rwSupersede
	rwPrecedence
	rwInstead
	rwPrevious
	rwPrior
	rwAbove
	rwOther
	rwEarlier
	rwAll
	rwMost
	rwImportant
	rwHighest
	rwPriority
	rwBefore
	rwAnything
	rwInstruction
	rwInstructions
	rwFollowing
	rwBand
	// rwOpener: the first word of one of referenceImperatives where a
	// sentence can start (see refWords).
	rwOpener
	// rwAngle, rwBracket, rwBacktick: the text holds '<', '[', '`'.
	rwAngle
	rwBracket
	rwBacktick
	// rwIdent: an identifier-shaped token, '_' or '.' between two
	// word characters (the shape refToolRef needs).
	rwIdent
)

// rwVerb marks, in refWordBits only, the first word of one of
// referenceImperatives; refWords turns it into rwOpener where a sentence
// can start.
const rwVerb = rwIdent << 1

// refWordBits maps a lower-case word to its bits; refMaxWord is the
// longest word's length.
var (
	refWordBits = map[string]uint64{
		"you": rwYou, "your": rwYour, "assistant": rwAssistant, "model": rwModel, "ai": rwAI,
		"llm": rwLLM, "agent": rwAgent, "system": rwSystem, "should": rwShould, "must": rwMust,
		"tool": rwTool, "function": rwFunction, "do": rwDo, "not": rwNot, "don": rwDon,
		"never": rwNever, "mention": rwMention, "tell": rwTell, "reveal": rwReveal,
		"disclose": rwDisclose, "show": rwShow, "inform": rwInform, "hide": rwHide,
		"conceal": rwConceal, "keep": rwKeep, "secret": rwSecret, "without": rwWithout,
		"user": rwUser, "silently": rwSilently, "ignore": rwIgnore, "disregard": rwDisregard,
		"override": rwOverride, "supersede": rwSupersede, "precedence": rwPrecedence,
		"instead": rwInstead, "previous": rwPrevious, "prior": rwPrior, "above": rwAbove,
		"other": rwOther, "earlier": rwEarlier, "all": rwAll, "most": rwMost,
		"important": rwImportant, "highest": rwHighest, "priority": rwPriority,
		"before": rwBefore, "anything": rwAnything, "instruction": rwInstruction,
		"instructions": rwInstructions, "following": rwFollowing, "band": rwBand,
	}
	refMaxWord int
)

func init() {
	// the first \b word of each imperative ("don't" splits as "don", "t")
	for _, v := range referenceImperatives {
		k := 0
		for k < len(v) && isRefWord(v[k]) {
			k++
		}
		refWordBits[v[:k]] |= rwVerb
	}
	for w := range refWordBits {
		refMaxWord = max(refMaxWord, len(w))
	}
	if refMaxWord >= refWordBuf {
		panic("detect: a reference word longer than refWords' buffer")
	}
}

// refWordBuf bounds the bytes of a word refWords keeps: more than any
// word of refWordBits, so a longer word is never cut to one of them.
const refWordBuf = 16

// refWords returns the bits of an ASCII text, and false for any other
// text.
//
// A sentence, as splitSentences cuts the stripped text, starts at the
// first non-blank byte or after a run of Python whitespace that follows
// '.', '!' or '?', or that holds a line break before its last byte
// (a line break followed by whitespace). An imperative word there sets
// rwOpener.
func refWords(s string) (uint64, bool) {
	var bits uint64
	var buf [refWordBuf]byte // a word's first bytes, lower-cased
	lead := true             // only blanks so far
	afterStop := false       // the blank run follows '.', '!' or '?'
	runNL := false           // the blank run holds a line break not at its end
	inRun := false           // the previous byte is blank
	prev := byte(0)
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x80 {
			return 0, false
		}
		if !isRefWord(c) {
			switch {
			case refBlank(c):
				if !inRun {
					afterStop = prev == '.' || prev == '!' || prev == '?'
					runNL = false
				} else if prev == '\n' {
					runNL = true
				}
				inRun = true
			default:
				inRun, lead = false, false
				switch c {
				case '<':
					bits |= rwAngle
				case '[':
					bits |= rwBracket
				case '`':
					bits |= rwBacktick
				case '.':
					if i > 0 && isRefWord(s[i-1]) && i+1 < len(s) && isRefWord(s[i+1]) {
						bits |= rwIdent
					}
				}
			}
			prev = c
			i++
			continue
		}
		start := i
		n := 0
		for i < len(s) && isRefWord(s[i]) {
			if s[i] == '_' && i > start && i+1 < len(s) && isRefWord(s[i+1]) {
				bits |= rwIdent
			}
			if n < len(buf) {
				c := s[i]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf[n] = c
				n++
			}
			i++
		}
		if n <= refMaxWord {
			b := refWordBits[string(buf[:n])]
			bits |= b &^ rwVerb
			if b&rwVerb != 0 && (lead || inRun && (afterStop || runNL)) {
				bits |= rwOpener
			}
		}
		inRun, lead = false, false
		prev = s[i-1]
	}
	return bits, true
}

// isRefWord reports a byte of \b's word class, [0-9A-Za-z_].
func isRefWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 'A' && c <= 'Z'
}

// refBlank reports the ASCII bytes Python's str.split() and strip()
// treat as whitespace.
func refBlank(c byte) bool {
	return c == ' ' || c >= '\t' && c <= '\r' || c >= 0x1c && c <= 0x1f
}

// The gates: for each reference rule, words every match holds.
func refGateOpener(w uint64) bool { return w&rwOpener != 0 }

func refGateSecondPerson(w uint64) bool {
	const addressee = rwAssistant | rwModel | rwAI | rwLLM | rwAgent
	return w&(rwYou|rwYour) != 0 && w&(addressee|rwSystem) != 0 ||
		w&addressee != 0 && w&(rwYou|rwShould|rwMust) != 0
}

func refGateToolRef(w uint64) bool {
	return w&rwIdent != 0 && w&(rwTool|rwFunction|rwBacktick) != 0
}

func refGateConcealment(w uint64) bool {
	return (w&(rwDo|rwNot) == rwDo|rwNot || w&(rwDon|rwNever) != 0) &&
		w&(rwMention|rwTell|rwReveal|rwDisclose|rwShow|rwInform) != 0 ||
		w&(rwHide|rwConceal|rwSilently) != 0 ||
		w&(rwKeep|rwSecret) == rwKeep|rwSecret || w&(rwWithout|rwUser) == rwWithout|rwUser
}

func refGatePriority(w uint64) bool {
	return w&(rwIgnore|rwDisregard|rwOverride|rwSupersede|rwPrecedence|rwInstead) != 0 &&
		w&(rwPrevious|rwPrior|rwAbove|rwOther|rwEarlier|rwAll) != 0 ||
		w&(rwMost|rwImportant) == rwMost|rwImportant ||
		w&(rwHighest|rwPriority) == rwHighest|rwPriority ||
		w&(rwBefore|rwAnything) == rwBefore|rwAnything
}

func refGateHidden(w uint64) bool {
	return w&(rwAngle|rwBracket) != 0 && w&(rwSystem|rwImportant|rwSecret|rwInstruction|rwInstructions) != 0 ||
		w&(rwFollowing|rwInstructions) == rwFollowing|rwInstructions || w&rwBand != 0
}
