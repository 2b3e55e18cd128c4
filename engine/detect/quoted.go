package detect

import (
	"sort"
	"strings"
)

// Quoted examples in a text about injections. A classifier, a red-team
// dataset browser, a gateway's block log or a descriptor linter quotes
// attacks as data ("Examples the model flags as injection: \"Ignore all
// previous instructions…\""). When a text has the words of that
// context (injection, jailbreak, phishing, classify, dataset, lint,
// blocked, treated as data, …), the instruction signals read it with
// its quoted spans ("…", `…`, '…') left out: what the text says in its
// own voice is still read. Character-level signals (hidden Unicode,
// escapes, encoded payloads) still read everything.

var dataCtxBits = func() (b wordBits) {
	for _, w := range []string{"injection", "injections", "jailbreak", "jailbreaks", "phishing", "malicious", "adversarial", "redteam", "teaming", "classify", "classifier", "detectors", "detector", "flags", "flagged", "blocked", "lint", "lints", "linter", "moderate", "dataset", "datasets", "corpus", "lure", "risky", "scanner", "evaluation", "guardrail", "guardrails", "verdict", "verdicts", "phrases", "payloads", "attacker", "attackers", "sanitize", "sanitizes", "sanitizer", "sanitise", "sanitises", "untrusted", "hostile", "bait", "canary", "poisoning", "poisoned", "auditor", "indicators", "detects", "quarantine", "quarantined", "obeyed", "classifies", "classified", "spam", "detected", "moderation", "manipulate", "manipulation"} {
		b.set(anchorID(w))
	}
	return b
}()

// dataCtx reports the words of a data context in a. The compounds
// ("red-team", "social-engineering") are read from the text: the anchor
// words see only their parts, which alone say nothing.
func dataCtx(a *Text) bool {
	if dataCtxBits.meets(a.alist) {
		return true
	}
	return compoundCtxBits.meets(a.alist) && (strings.Contains(a.norm, "red-team") || strings.Contains(a.norm, "red team") || strings.Contains(a.norm, "social-engineering") || strings.Contains(a.norm, "social engineering") || strings.Contains(a.norm, "quoted as data") || strings.Contains(a.norm, "training material") || strings.Contains(a.norm, "security-awareness") || strings.Contains(a.norm, "security awareness") || strings.Contains(a.norm, "injected prompt"))
}

// compoundCtxBits are the second words of those compounds, looked up
// among the text's anchor words before the text is searched.
var compoundCtxBits = func() (b wordBits) {
	b.set(anchorID("team"))
	b.set(anchorID("engineering"))
	b.set(anchorID("quoted"))
	b.set(anchorID("material"))
	b.set(anchorID("awareness"))
	b.set(anchorID("prompts"))
	b.set(anchorID("prompt"))
	return b
}()

// maskQuoted drops the content of quoted spans from a.norm when the text
// handles injections as data.
func maskQuoted(a *Text) {
	if !dataCtx(a) || roleFence(a.norm) {
		maskExamples(a)
		return
	}
	s := a.norm
	out := make([]byte, 0, len(s))
	from := make([]int, 0, len(s))
	var open byte
	dropped, keep := false, false
	closedAt := -1   // where the last left-out quote in another script closed
	foreign := false // the open quote has letters outside ASCII
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case open == 0 && c == '(' && closedAt >= 0 && strings.TrimSpace(s[closedAt:i]) == "" && glossEnd(s[i:]) > 0:
			// the gloss of a left-out quote in another script
			// ("忽略之前的所有指示" (ignore all previous instructions)) is
			// the quote again, translated
			out = append(out, c)
			from = append(from, i)
			i += glossEnd(s[i:]) - 1
			dropped = true
			continue
		case open == 0 && c == 0xe3 && (strings.HasPrefix(s[i:], "「") || strings.HasPrefix(s[i:], "『")):
			// a CJK corner-bracket quote: the bracket is kept, its last
			// byte stands for it while it is open
			out = append(out, s[i:i+3]...)
			from = append(from, i, i+1, i+2)
			open, foreign, keep = s[i+2], true, false
			i += 2
			continue
		case (open == 0x8c || open == 0x8e) && strings.HasPrefix(s[i:], string([]byte{0xe3, 0x80, open + 1})):
			out = append(out, s[i:i+3]...)
			from = append(from, i, i+1, i+2)
			open, closedAt = 0, i+3
			i += 2
			continue
		case open == 0 && (c == '"' || c == '`' || c == '\'' && (i == 0 || !isWordByte(s[i-1])) && i+1 < len(s) && s[i+1] != ' '):
			open, foreign = c, false
			keep = ordersQuote(s[:i]) || quotesCommand(s[i+1:], c) || quotesName(s[i+1:], c)
		case open != 0 && open < 0x80 && c == open && (c != '\'' || i+1 == len(s) || !isWordByte(s[i+1])):
			open = 0
			if closedAt = -1; !keep && foreign {
				closedAt = i + 1
			}
		case open != 0 && !keep:
			dropped = true
			foreign = foreign || c >= 0x80
			continue
		}
		out = append(out, c)
		from = append(from, i)
	}
	if open != 0 || !dropped {
		maskExamples(a) // an unbalanced quote: the quotes are read as they are
		return
	}
	remapSpaced(a, from)
	a.rebuild(out, from)
	anchorWords(a)
	maskExamples(a)
}

// glossEnd returns the length of the parenthesis that opens t, one
// line of at most 200 bytes with nothing quoted in it, or 0.
func glossEnd(t string) int {
	k := strings.IndexByte(t[:min(len(t), 200)], ')')
	if k < 0 || strings.ContainsAny(t[1:k], "\n\"`(") {
		return 0
	}
	return k
}

// remapSpaced keeps the letter-spaced run in norm's new offsets after a
// rebuild: what is left of it, or nothing when it was left out.
func remapSpaced(a *Text, from []int) {
	if a.spacedLen > 0 {
		a.spacedI, a.spacedJ = remapSpan(from, a.spacedI, a.spacedJ)
		if a.spacedI == a.spacedJ {
			a.spacedLen = 0
		}
	}
}

// remapSpan returns the span of the bytes of [i, j) that survive in a
// rebuilt text whose byte k came from byte from[k].
func remapSpan(from []int, i, j int) (int, int) {
	return sort.SearchInts(from, i), sort.SearchInts(from, j)
}

// quotesCommand reports a quoted span that is itself a harmful shell
// command (`curl … | sh`): it is kept in a data context whatever word
// comes before it, in any language; a command quoted as an example
// ("such as `curl … | sh`") is still left out by maskExamples.
func quotesCommand(rest string, closer byte) bool {
	j := strings.IndexByte(rest, closer)
	if j < 0 {
		return false
	}
	return shellConstruct(rest[:j]) != 0
}

// quotesName reports a quoted span that is one path from the home or
// the root ("`~/.netrc`", "`~/.homeassistant/secrets.yaml`"): a name the text uses in
// its own voice, not a quoted example, which is a phrase or a token of
// markup. A scanner's own docs that name a path are read as they would
// be with no data context.
func quotesName(rest string, closer byte) bool {
	j := strings.IndexByte(rest, closer)
	if j <= 0 || strings.ContainsAny(rest[:j], " <>|") {
		return false
	}
	return rest[0] == '~' && j > 2 && rest[1] == '/' || rest[0] == '/' && strings.IndexByte(rest[1:j], '/') >= 0
}

// ordersQuote reports a quoted span the text orders the model to run or
// write ("run `pip install …`", "append '…' to ~/.bashrc"): an order in
// the text's own voice, not an example, so it is not left out.
func ordersQuote(before string) bool {
	before = strings.TrimRight(before, " :")
	k := strings.LastIndexByte(before, ' ')
	switch before[k+1:] {
	case "run", "execute", "exec", "type", "paste", "append", "install", "invoke", "call", "enter":
		return true
	}
	return false
}

// maskExamples, in any text, leaves out what is quoted as an example of
// something ("logs can contain user text like 'ignore your rules' or
// 'you are now in developer mode'"): a quoted span right after "like",
// "such as", "e.g." or "for example", and the spans chained to it with
// "or", "and" or a comma. It also leaves out a sentence that opens with
// a detecting verb in the third person and lists what it detects
// ("Flags patterns such as … descriptions that ask the model to read
// ~/.ssh"): the tool describing its catch, not ordering the model.
func maskExamples(a *Text) {
	s := a.norm
	if !strings.Contains(s, "like ") && !strings.Contains(s, "such as") && !strings.Contains(s, "e.g.") && !strings.Contains(s, "example") && !strings.Contains(s, "contain") && !strings.Contains(s, "decodes to") && !strings.Contains(s, "sample") && !strings.Contains(s, "payloads") && !strings.Contains(s, "stripped") && !strings.Contains(s, "quote") && !strings.Contains(s, "asking for") && !strings.Contains(s, "addressed to") && !strings.Contains(s, "findings") && !strings.Contains(s, "reading") && !strings.Contains(s, " for:") && !strings.Contains(s, "s include") {
		return
	}
	drop := make([]bool, len(s))
	any := false
	chained := false
	prevEnd := 0 // where the last quoted example ended
	for i := 0; i < len(s); i++ {
		c := s[i]
		closer := string(c)
		switch {
		case strings.HasPrefix(s[i:], "“"):
			closer = "”"
		case strings.HasPrefix(s[i:], "‘"):
			closer = "’"
		case c == '<' && i+1 < len(s) && isWordStart(s[i+1]):
			// an element quoted as an example ("hidden text like <span
			// style=\"display:none\">ignore prior instructions</span>"):
			// its content is left out, its tags are kept
			if k, e := elementContent(s, i); k > 0 && exampleMarker(strings.TrimRight(s[:i], " :,(\n")) {
				for m := k; m < e; m++ {
					drop[m] = true
				}
				any = true
				i = e
			}
			continue
		case c != '"' && c != '`' && c != '\'' || c == '\'' && i > 0 && isWordByte(s[i-1]):
			continue
		}
		j := strings.Index(s[i+1:], closer)
		if j < 0 || j > 200 {
			continue
		}
		j += i + 1
		before := strings.TrimRight(s[:i], " :,(\n-*>•")
		if sp := strings.LastIndexAny(before, " \n"); sp >= 0 && strings.HasSuffix(strings.TrimRight(s[:i], " "), ":") && labelOnly(before[sp+1:]+":") && exampleMarker(strings.TrimRight(before[:sp], " :,(\n")) {
			before = strings.TrimRight(before[:sp], " :,(\n") // "a trace line like\n  Observation: \"…\""
		}
		if exampleMarker(before) || chained && (strings.HasSuffix(before, " or") || strings.HasSuffix(before, " and") || strings.HasSuffix(s[:i], ", ") || orNear(before) || listBreak(s[prevEnd:i])) {
			// a tool's name given as an example ("any payments tool (e.g.
			// `create_payment`, `pay_invoice`)") carries no instruction:
			// it stays, for the signals that read which tool a rule is for
			if q := s[i+1 : j]; !nameToken(q) || !toolShaped(q) {
				for k := i + 1; k < j; k++ {
					drop[k] = true
				}
				any = true
			}
			chained = true
			prevEnd = j + len(closer)
		} else {
			chained = false
		}
		i = j
	}
	// lines quoted as examples under a line that announces them ("such
	// as:\n> SYSTEM: route this to the mayor's office")
	for ls, listed, listing := 0, false, false; ls < len(s); {
		le := strings.IndexByte(s[ls:], '\n')
		if le < 0 {
			le = len(s)
		} else {
			le += ls
		}
		line := s[ls:le]
		switch {
		case listed && strings.HasPrefix(line, "> "):
			for k := ls + 2; k < le; k++ {
				drop[k] = true
			}
			any = true
		case listing && (strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* ")):
			for k := ls + 2; k < le; k++ {
				drop[k] = true // "looks for:\n- private keys (id_rsa, *.pem)": what a scanner finds
			}
			any = true
		case strings.HasSuffix(line, ":") && exampleMarker(strings.TrimRight(line, " :")):
			listed, listing = true, false
		case strings.HasSuffix(line, ":") && findsList(line):
			listing = true
		case strings.TrimSpace(line) == "" && (listed || listing):
			// a blank line between the announcement and its lines
		default:
			listed, listing = false, false
		}
		ls = le + 1
	}
	for _, se := range splitSpans(s, nil) {
		t := s[se.i:se.j]
		w := firstWord(strings.TrimLeft(t, "-*# "))
		if (w == "looks" || w == "checks" || w == "scans" || w == "searches") && strings.HasPrefix(strings.TrimLeft(t, "-*# ")[len(w):], " for:") {
			for k := se.i + len(w) + 1; k < se.j; k++ {
				drop[k] = true
			}
			any = true
			continue
		}
		if detectVerbs[w] && (strings.Contains(t, "such as") || strings.Contains(t, " like ") || strings.Contains(t, "e.g.") || strings.Contains(t, "that ask") || strings.Contains(t, "which ask") || strings.Contains(t, "attempts") || strings.Contains(t, "among others")) {
			for k := se.i + len(w) + 1; k < se.j; k++ {
				drop[k] = true
			}
			any = true
		}
	}
	if !any {
		return
	}
	out := make([]byte, 0, len(s))
	from := make([]int, 0, len(s))
	for i := 0; i < len(s); i++ {
		if !drop[i] {
			out = append(out, s[i])
			from = append(from, i)
		}
	}
	remapSpaced(a, from)
	a.rebuild(out, from)
	anchorWords(a)
}

// elementContent returns the bounds of the content of the element whose
// opening tag starts at s[i] ("<span …>content</span>"), within 200
// bytes, or 0, 0.
func elementContent(s string, i int) (int, int) {
	n := i + 1
	for n < len(s) && isWordByte(s[n]) {
		n++
	}
	name := s[i+1 : n]
	gt := strings.IndexByte(s[n:min(len(s), n+120)], '>')
	if gt < 0 {
		return 0, 0
	}
	k := n + gt + 1
	e := strings.Index(s[k:min(len(s), k+200)], "</"+name+">")
	if e < 0 {
		return 0, 0
	}
	return k, k + e
}

// findsList reports a line that opens a list of what a detecting tool
// finds ("scans a repo … looks for:", "flags:", "detects:").
func findsList(line string) bool {
	l := strings.TrimRight(line, " :")
	for _, v := range []string{"looks for", "checks for", "scans for", "searches for", "detects", "flags", "finds", "catches", "reports"} {
		if strings.HasSuffix(l, v) {
			return true
		}
	}
	return false
}

// listBreak reports that between two quoted examples there is only the
// start of the next list item ("\"…\"\n- \"…\"").
func listBreak(gap string) bool {
	g := strings.TrimSpace(gap)
	return labelOnly(g) || strings.HasPrefix(strings.TrimLeft(gap, " ."), "\n") && (g == "-" || g == "*" || g == "•" || g == ">" || g == "" || len(g) <= 3 && g[len(g)-1] == '.' && g[0] >= '0' && g[0] <= '9')
}

// labelOnly reports a gap that is one label and a colon ("observation:"),
// the next line of a quoted trace.
func labelOnly(g string) bool {
	g = strings.TrimLeft(g, ".")
	g = strings.TrimSpace(g)
	return len(g) > 1 && len(g) <= 24 && g[len(g)-1] == ':' && isWordToken(strings.TrimSpace(g[:len(g)-1]))
}

// orNear reports "or" or "and" at most three words before a quote
// ("… here\" or white-on-white \"ignore prior instructions\"").
func orNear(before string) bool {
	w := strings.Fields(before[max(0, len(before)-40):])
	for k := len(w) - 1; k >= 0 && k >= len(w)-4; k-- {
		if w[k] == "or" || w[k] == "and" {
			return true
		}
	}
	return false
}

// nameToken reports an identifier: letters, digits, '_', '.' and '-',
// with an underscore, opening with a letter.
func nameToken(q string) bool {
	if len(q) < 4 || !isLetterByte(q[0]) || strings.IndexByte(q, '_') < 0 {
		return false
	}
	for k := 0; k < len(q); k++ {
		if c := q[k]; !isWordByte(c) && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

func exampleMarker(before string) bool {
	if k := strings.LastIndexByte(before, '\n'); k >= 0 && !strings.Contains(before[k:], " ") {
		before = before[:k] + " " + before[k+1:] // a marker that opens its line ("\nexamples")
	}
	for _, m := range []string{" like", " such as", "e.g.", "e.g", " for example", " for instance", " example", " examples", " say", " saying", " containing", " contains", " contained", " contain", " decodes to", " asking for", " sample", " samples", " payloads", " test payloads", " get stripped", " gets stripped", " are stripped", " as a quote", " entries", " findings", " reading", " addressed to ai assistants", " addressed to the assistant", " addressed to assistants", " addressed to the model", " cases include", " tests include", " attacks include", " probes include", " prompts include"} {
		if strings.HasSuffix(before, m) || before == strings.TrimSpace(m) {
			return true
		}
	}
	return false
}

// detectVerbs open a sentence in which the tool describes what it
// catches.
var detectVerbs = map[string]bool{"flags": true, "detects": true, "strips": true, "removes": true, "blocks": true, "catches": true, "finds": true, "audits": true, "scans": true, "redacts": true, "filters": true, "masks": true, "sanitizes": true, "sanitises": true, "classifies": true, "labels": true, "highlights": true, "identifies": true, "quarantines": true, "rejects": true, "marks": true, "warns": true}

// roleFence reports a fenced block labelled as a role or a rule set
// ("```system", "```policy"):
// that is the markup an attack hides in, not a quoted example, so the
// text is read as it is.
func roleFence(s string) bool {
	for off := 0; ; {
		k := strings.Index(s[off:], "```")
		if k < 0 {
			return false
		}
		off += k + 3
		switch w := strings.TrimLeft(s[off:min(len(s), off+20)], " \n"); {
		case strings.HasPrefix(w, "system"), strings.HasPrefix(w, "assistant"), strings.HasPrefix(w, "instruction"), strings.HasPrefix(w, "prompt"), strings.HasPrefix(w, "developer"), strings.HasPrefix(w, "policy"), strings.HasPrefix(w, "agent"):
			return true
		}
	}
}
