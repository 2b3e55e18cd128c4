package detect

import "math/bits"

// The default rule set: named, weighted signals over every text a model
// reads (see ModelTexts), matched on normalised text (see normalize.go)
// with the original quoted in each detail. Each signal catches a family
// of attack, not a phrase: its examples and counter examples sit beside
// it and TestPoisonRuleExamples runs them. docs/detection.md describes
// every signal, what it misses and how it measures on the corpus.

// signal is one default rule before it becomes a PoisonRule.
type signal struct {
	name   string
	weight int
	// words are normalised words that can start the signal and flags
	// character features that can; the first anchor group of each of
	// its patterns (pats) adds words, a pattern with only required
	// features adds flags. A text with none of them is skipped before
	// the signal runs (see candidates).
	words     []string
	flags     uint32
	pats      []pat
	charLevel bool // reads characters, not words: not re-run on hidden or decoded text
	match     func(*Text) (evidence, detail string)
	examples  []string
	counter   []string
	always    bool   // some pattern has no anchor and no feature: always run
	bit       uint64 // the signal's bit in Text.cand
	harm      harm   // what the signal says about intent (see severity.go)
}

// Match runs the signal over one normalised text.
func (sg *signal) Match(a *Text) (string, string) {
	if a.orig == "" || a.plain {
		return "", ""
	}
	if a.cand&sg.bit == 0 {
		return "", ""
	}
	return sg.match(a)
}

// candidates is the set of signals a can start, worked out once per text:
// the signals of each anchor word it holds, of each character feature it
// has, and those that always run.
func candidates(a *Text) uint64 {
	c := alwaysSignals
	for _, id := range a.alist {
		c |= anchorSignals[id]
	}
	for f := a.flags; f != 0; f &= f - 1 {
		c |= flagSignals[bits.TrailingZeros32(f)]
	}
	return c
}

// anchorSignals maps an anchor word id to the signals it can start,
// flagSignals a character feature (by bit) to the signals it can;
// alwaysSignals are the signals with an unanchored pattern.
var (
	anchorSignals [maxAnchorWords]uint64
	flagSignals   [32]uint64
	alwaysSignals uint64
)

// defaultSignals and defaultRules are set in init: the encoded-payload
// signal runs the others over what it decodes.
var (
	defaultSignals []signal
	defaultRules   []PoisonRule
)

func init() {
	defaultSignals = signalTable()
	defaultRules = make([]PoisonRule, len(defaultSignals))
	for i := range defaultSignals {
		sg := &defaultSignals[i]
		sg.bit = 1 << uint(i)
		for _, w := range sg.words {
			anchorSignals[anchorID(w)] |= sg.bit
		}
		for _, p := range sg.pats {
			switch {
			case len(p.groups) > 0:
				for _, w := range p.words[0] {
					anchorSignals[anchorID(w)] |= sg.bit
				}
			case p.need != 0:
				sg.flags |= p.need
			default:
				sg.always = true
			}
		}
		if sg.always {
			alwaysSignals |= sg.bit
		}
		for f := sg.flags; f != 0; f &= f - 1 {
			flagSignals[bits.TrailingZeros32(f)] |= sg.bit
		}
		signalHarm[sg.name] = sg.harm
		defaultRules[i] = PoisonRule{Name: sg.name, Weight: sg.weight, Match: sg.Match, Examples: sg.examples, Counter: sg.counter}
	}
	for w := range anchorIDs {
		anchorShape.add(w)
	}
	anchorAuto = buildAnchorAutomaton()
	buildGroupSets()
}

// signalTable lists the signals, one file each (sig_<name>.go), with
// their examples and counter examples beside them.
func signalTable() []signal {
	return append(baseSignals(), sigShellCommand, sigPersonaOverride, sigPreference, sigHarmfulBehaviour, sigContextHarvest, sigDataSharing)
}

func baseSignals() []signal {
	return []signal{
		sigImperativeOpener,
		sigSecondPersonModel,
		sigToolReference,
		sigConcealment,
		sigPriorityOverride,
		sigHiddenChannel,
		sigHiddenUnicode,
		sigTerminalEscape,
		sigEncodedPayload,
		sigExfiltration,
		sigSensitiveFile,
		sigSecretRequest,
		sigPromptLeak,
		sigHiddenParameter,
		sigCoercion,
		sigCrossTool,
		sigForeignInstruction,
		sigPadding,
		sigSpacedLetters,
		sigLookalikeName,
		sigNameCharset,
	}
}

func repeatString(s string, n int) string {
	out := make([]byte, 0, len(s)*n)
	for i := 0; i < n; i++ {
		out = append(out, s...)
	}
	return string(out)
}
