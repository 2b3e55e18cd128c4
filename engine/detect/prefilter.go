package detect

import (
	"regexp/syntax"
	"strings"
)

// A prefilter is a set of strings an expression's every match contains
// one of, worked out from the expression's syntax tree: a literal needs
// itself, an alternation the union of what its branches need, a
// concatenation what one of its parts needs (the most selective), an
// optional or repeated-zero-times part nothing. may is false only where
// the expression cannot match, so an expression behind it runs only on
// the texts that may hold a match. An expression with no such set (it
// can match the empty string, or only classes of characters) gets an
// empty prefilter, which lets everything through.
// FuzzPrefilters, TestPrefiltersBoundPatternMatches and FuzzPrefilterMost check
// it. Every pattern (pat) has one, worked out on its first search (see
// patFilter): it turns searches away and bounds how many matches a
// search looks for (most).
type prefilter struct {
	need []string // nil: no requirement
}

// The prefilters in front of expressions the signals run on many
// sentences.
var (
	argOverrideGate     = prefilterOf(argOverride)
	disparageStrongGate = prefilterOf(disparageStrong)
)

// prefilterOf works out re's prefilter.
func prefilterOf(re expr) prefilter {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return prefilter{}
	}
	need := reqOf(t.Simplify()).needs()
	if len(need) == 0 || len(need) > 24 {
		return prefilter{}
	}
	// a string that holds another member is implied by it
	var out []string
	for i, s := range need {
		implied := false
		for j, o := range need {
			if j != i && strings.Contains(s, o) && (len(o) < len(s) || j < i) {
				implied = true
				break
			}
		}
		if !implied {
			out = append(out, s)
		}
	}
	return prefilter{need: out}
}

// may reports whether s holds one of the strings every match holds.
func (p prefilter) may(s string) bool {
	if p.need == nil {
		return true
	}
	for _, w := range p.need {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// most bounds a search for up to n matches in s (all of them when n <
// 0): the expression's matches do not overlap and each holds one of the
// strings, so there are no more of them than places where one of the
// strings starts; most is n, or that count when it is smaller (0: the
// expression cannot match). An expression that can match the empty
// string has no strings, and most is then n.
func (p prefilter) most(s string, n int) int {
	if p.need == nil {
		return n
	}
	k := 0
	for _, w := range p.need {
		for off := 0; ; {
			i := strings.Index(s[off:], w)
			if i < 0 {
				break
			}
			if k++; n >= 0 && k >= n {
				return n
			}
			off += i + 1
		}
	}
	if n >= 0 && k > n {
		return n
	}
	return k
}

// req is what reqOf knows of a subexpression: every string it matches
// (exact, when that is a small finite set) and a set of strings each
// match contains one of (any, nil when none is known).
type req struct {
	exact []string
	known bool
	any   []string
}

const reqLimit = 16

// needs is a set each match contains one of, nil when none is known.
func (r req) needs() []string {
	if r.known {
		for _, s := range r.exact {
			if s == "" {
				return nil
			}
		}
		return r.exact
	}
	return r.any
}

func reqOf(t *syntax.Regexp) req {
	switch t.Op {
	case syntax.OpLiteral:
		if t.Flags&syntax.FoldCase != 0 {
			return req{}
		}
		return req{exact: []string{string(t.Rune)}, known: true}
	case syntax.OpCharClass:
		var out []string
		for k := 0; k+1 < len(t.Rune); k += 2 {
			for r := t.Rune[k]; r <= t.Rune[k+1]; r++ {
				if len(out) >= 8 {
					return req{}
				}
				out = append(out, string(r))
			}
		}
		return req{exact: out, known: true}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return req{exact: []string{""}, known: true}
	case syntax.OpCapture:
		return reqOf(t.Sub[0])
	case syntax.OpQuest:
		r := reqOf(t.Sub[0])
		if r.known && len(r.exact) < reqLimit {
			return req{exact: append(r.exact[:len(r.exact):len(r.exact)], ""), known: true}
		}
		return req{}
	case syntax.OpPlus:
		return req{any: reqOf(t.Sub[0]).needs()}
	case syntax.OpRepeat:
		if t.Min >= 1 {
			return req{any: reqOf(t.Sub[0]).needs()}
		}
		return req{}
	case syntax.OpAlternate:
		var exact, any []string
		known, needs := true, true
		for _, sub := range t.Sub {
			r := reqOf(sub)
			if known && r.known && len(exact)+len(r.exact) <= reqLimit {
				exact = append(exact, r.exact...)
			} else {
				known = false
			}
			if n := r.needs(); n != nil && needs {
				any = append(any, n...)
			} else {
				needs = false
			}
		}
		switch {
		case known:
			return req{exact: exact, known: true}
		case needs:
			return req{any: any}
		}
		return req{}
	case syntax.OpConcat:
		return concatReq(t.Sub)
	}
	return req{}
}

// concatReq: the exact set of a concatenation when small; otherwise the
// best of its parts' needs, where runs of parts with small exact sets
// are joined into longer strings.
func concatReq(subs []*syntax.Regexp) req {
	var cands [][]string
	run := []string{""}
	inRun := false
	all := true
	flush := func() {
		if inRun {
			cands = append(cands, run)
		}
		run, inRun = []string{""}, false
	}
	for _, sub := range subs {
		r := reqOf(sub)
		if n := r.needs(); n != nil {
			cands = append(cands, n)
		}
		if !r.known {
			all = false
			flush()
			continue
		}
		if len(run)*len(r.exact) > reqLimit {
			all = false
			flush()
		}
		next := make([]string, 0, len(run)*len(r.exact))
		for _, a := range run {
			for _, b := range r.exact {
				next = append(next, a+b)
			}
		}
		run, inRun = next, true
	}
	if all {
		return req{exact: run, known: true}
	}
	flush()
	var best []string
	for _, c := range cands {
		if betterNeed(c, best) {
			best = c
		}
	}
	return req{any: best}
}

// betterNeed prefers a set whose strings are all of some length (three
// bytes or more); between two sets of eight strings or fewer, the longer
// shortest string (" priority" loses to "highest priority", "top
// priority", ..., which far fewer sentences hold); otherwise the smaller
// set, then the longer shortest string. Any of the sets is one every
// match holds a string of, so the choice changes only how much the
// prefilter turns away.
func betterNeed(c, best []string) bool {
	if len(c) == 0 {
		return false
	}
	for _, s := range c {
		if s == "" {
			return false
		}
	}
	if best == nil {
		return true
	}
	cm, bm := minLen(c), minLen(best)
	if (cm >= 3) != (bm >= 3) {
		return cm >= 3
	}
	if len(c) <= 8 && len(best) <= 8 && cm != bm {
		return cm > bm
	}
	if len(c) != len(best) {
		return len(c) < len(best)
	}
	return cm > bm
}

func minLen(ss []string) int {
	m := 1 << 30
	for _, s := range ss {
		m = min(m, len(s))
	}
	return m
}
