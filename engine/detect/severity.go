package detect

import "github.com/descriptorpin/descriptorpin/engine"

// harm is what a signal says about intent, and so how far it alone can
// raise a POISON finding's severity.
type harm uint8

const (
	// harmSuspicious: a shape attacks use and documentation sometimes
	// has (markup blocks, padding, hidden characters, imperatives, tool
	// preference): at most medium unless a harmful signal fires too.
	harmSuspicious harm = iota
	// harmNote: documented behaviour a reviewer should know about (data
	// sharing): low on its own.
	harmNote
	// harmHigh: the harm itself: secrets, files, the conversation or the
	// system prompt asked for, the user kept in the dark, instructions
	// overridden, other servers' tools redirected, commands run.
	harmHigh
	// harmContext: who a text addresses (second_person_model) or that a
	// sentence opens with an order (imperative_opener). Vendors address
	// the model all the time ("Note to LLM: …", "The LLM should extract
	// …"): reported only beside another signal, as context.
	harmContext
)

var signalHarm = map[string]harm{}

// PoisonSeverity is the severity of a POISON finding with these
// signals (the default rules): critical for two harmful signals, or one
// with a score of 10 or more; high for one harmful signal; medium for a
// suspicious signal of weight 2 or more, or a score of 3 or more; low
// for weight-1 signals alone and for notes. Weights keep the values they
// had, so scores read as before; severity no longer follows the score
// alone. The
// reference rules keep the original's score thresholds
// (engine.PoisonSeverity).
func PoisonSeverity(rs RuleSet, sigs []engine.Signal) engine.Severity {
	score := 0
	for _, s := range sigs {
		score += s.Weight
	}
	if rs == RulesReference {
		return engine.PoisonSeverity(score)
	}
	harmful, other, strong := 0, 0, false
	for _, s := range sigs {
		switch signalHarm[s.Name] {
		case harmHigh:
			harmful++
		case harmSuspicious:
			other += s.Weight
			strong = strong || s.Weight >= 2
		case harmContext:
			other += s.Weight
		}
	}
	switch {
	case harmful >= 2 || harmful == 1 && score >= 10:
		return engine.Critical
	case harmful == 1:
		return engine.High
	case strong || other >= 3:
		return engine.Medium
	}
	if len(sigs) == 0 {
		return 0
	}
	return engine.Low
}

// SignalSeverity is the severity one signal of this weight gives a
// finding on its own (the default rules): high for a harmful signal,
// medium for a suspicious one of weight 2 or more, low for a note or
// for context. SARIF ranks each signal's rule by it.
func SignalSeverity(name string, weight int) engine.Severity {
	if signalHarm[name] == harmContext {
		return engine.Low // reported only beside another signal
	}
	return PoisonSeverity(RulesDefault, []engine.Signal{{Name: name, Weight: weight}})
}
