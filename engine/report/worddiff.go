package report

import (
	"fmt"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// A word-level diff of two texts, for the text report's MUTATION lines: a
// long description that gained one sentence must show that sentence, not
// the first 85 characters of both versions.
//
// Words are runs of characters between ASCII spaces, tabs and line breaks.
// In a JSON value (a changed schema part, canonical JSON without spaces)
// the punctuation { } [ ] , : is a word of its own, so it is diffed by its
// parts too. Any other
// character, invisible ones included, stays inside its word and is shown
// escaped by sanitize.Text.

// diffContext is how many unchanged words a hunk shows on each side.
const diffContext = 6

// maxRunWords caps one removed or inserted run; the rest is counted, and
// the JSON report has the full texts.
const maxRunWords = 300

// maxDiffCells bounds the LCS table; beyond it the differing middle is
// shown as removed then inserted, which is still the whole change.
const maxDiffCells = 1 << 20

type word struct {
	text  string
	space bool // whitespace came before it in its text
}

type op struct {
	kind byte // '=', '-', '+'
	w    word
}

func splitWords(s string) []word {
	var out []word
	isJSON := strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")
	space := false
	start := -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, word{s[start:end], space})
			space = false
			start = -1
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\r':
			flush(i)
			space = true
		case '{', '}', '[', ']', ',', ':':
			if !isJSON {
				if start < 0 {
					start = i
				}
				continue
			}
			flush(i)
			out = append(out, word{s[i : i+1], space})
			space = false
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(len(s))
	return out
}

// diffWords returns the edit script turning a into b: common prefix and
// suffix, then a longest common subsequence of the middle.
func diffWords(a, b []word) []op {
	p := 0
	for p < len(a) && p < len(b) && a[p].text == b[p].text {
		p++
	}
	q := 0
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q].text == b[len(b)-1-q].text {
		q++
	}
	var ops []op
	for _, w := range b[:p] {
		ops = append(ops, op{'=', w})
	}
	ma, mb := a[p:len(a)-q], b[p:len(b)-q]
	if (len(ma)+1)*(len(mb)+1) > maxDiffCells {
		for _, w := range ma {
			ops = append(ops, op{'-', w})
		}
		for _, w := range mb {
			ops = append(ops, op{'+', w})
		}
	} else {
		ops = append(ops, lcs(ma, mb)...)
	}
	for _, w := range b[len(b)-q:] {
		ops = append(ops, op{'=', w})
	}
	return ops
}

func lcs(a, b []word) []op {
	n, m := len(a), len(b)
	// t[i][j] is the LCS length of a[i:] and b[j:].
	t := make([]int32, (n+1)*(m+1))
	at := func(i, j int) int32 { return t[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			v := max(at(i+1, j), at(i, j+1))
			if a[i].text == b[j].text {
				v = at(i+1, j+1) + 1
			}
			t[i*(m+1)+j] = v
		}
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i].text == b[j].text:
			ops = append(ops, op{'=', b[j]})
			i++
			j++
		case j < m && (i == n || at(i, j+1) >= at(i+1, j)):
			ops = append(ops, op{'+', b[j]})
			j++
		default:
			ops = append(ops, op{'-', a[i]})
			i++
		}
	}
	// Removals before insertions within a change reads better: [-a-]{+b+}.
	for k := 1; k < len(ops); k++ {
		for l := k; l > 0 && ops[l].kind == '-' && ops[l-1].kind == '+'; l-- {
			ops[l], ops[l-1] = ops[l-1], ops[l]
		}
	}
	return ops
}

// WordDiff renders what changed from pinned to scanned, one line per hunk:
// a few unchanged words of context, removed words as [-...-] and inserted
// words as {+...+}, "..." where context was left out, every word escaped by
// sanitize.Text. It returns nil when the words are the same (only spacing
// changed).
func WordDiff(pinned, scanned string) []string { return wordDiff(pinned, scanned, sanitize.Text) }

func wordDiff(pinned, scanned string, esc func(string) string) []string {
	ops := diffWords(splitWords(pinned), splitWords(scanned))
	var lines []string
	for k := 0; k < len(ops); {
		if ops[k].kind == '=' {
			k++
			continue
		}
		// A hunk: changes separated by at most 2*diffContext equal words.
		start := max(0, k-diffContext)
		end := k
		for end < len(ops) {
			if ops[end].kind != '=' {
				end++
				continue
			}
			e := end
			for e < len(ops) && ops[e].kind == '=' {
				e++
			}
			if e == len(ops) || e-end > 2*diffContext {
				break
			}
			end = e
		}
		stop := min(len(ops), end+diffContext)
		lines = append(lines, renderHunk(ops[start:stop], start > 0, stop < len(ops), esc))
		k = stop
	}
	return lines
}

func renderHunk(ops []op, before, after bool, esc func(string) string) string {
	var b strings.Builder
	if before {
		b.WriteString("... ")
	}
	prev := byte(0)
	for k := 0; k < len(ops); {
		kind := ops[k].kind
		e := k
		for e < len(ops) && ops[e].kind == kind {
			e++
		}
		run := ops[k:e]
		if prev != 0 && run[0].w.space && !(prev == '-' && kind == '+') {
			b.WriteByte(' ')
		}
		switch kind {
		case '=':
			b.WriteString(joinWords(run, len(run), esc))
		case '-':
			b.WriteString("[-" + joinWords(run, maxRunWords, esc) + "-]")
		case '+':
			b.WriteString("{+" + joinWords(run, maxRunWords, esc) + "+}")
		}
		prev = kind
		k = e
	}
	if after {
		b.WriteString(" ...")
	}
	return b.String()
}

func joinWords(run []op, limit int, esc func(string) string) string {
	var b strings.Builder
	for i, o := range run {
		if i == limit {
			fmt.Fprintf(&b, " ... (%d more words, see --format json)", len(run)-limit)
			break
		}
		if i > 0 && o.w.space {
			b.WriteByte(' ')
		}
		b.WriteString(esc(o.w.text))
	}
	return b.String()
}
