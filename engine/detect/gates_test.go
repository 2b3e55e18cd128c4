package detect

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
)

// gates pairs each gate with the expression it stands in front of.
var gates = []struct {
	name string
	gate func(string) bool
	re   expr
}{
	{"maySteer", maySteer, steerTarget},
	{"mayOmit", mayOmit, omitFromReply},
	{"argOverrideGate", argOverrideGate.may, argOverride},
	{"disparageStrongGate", disparageStrongGate.may, disparageStrong},
	{"mayAsk", mayAsk, askQuestion},
	{"mayThreat", mayThreat, threatClause},
}

// corpusTexts is every text of the signals' examples, the tuning items,
// the real-world tools, the paraphrase lines, the bench inventory with
// mutations and 3,000 of the digest's synthetic tools.
func corpusTexts(t *testing.T) []string {
	t.Helper()
	var invs []*engine.Inventory
	parse := func(name string, doc []byte) {
		inv, err := inventory.Parse(name, doc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		invs = append(invs, inv)
	}
	var descs []string
	for _, sg := range defaultSignals {
		descs = append(descs, sg.examples...)
		descs = append(descs, sg.counter...)
	}
	descs = append(descs, readLines(t, "testdata/paraphrase/attacks.txt")...)
	descs = append(descs, readLines(t, "testdata/paraphrase/benign.txt")...)
	parse("descs.json", descInventory(descs))
	doc, err := invgen.Generate(invgen.Options{Servers: 20, Tools: 50, Seed: invgen.DefaultSeed, Mutate: 600})
	if err != nil {
		t.Fatal(err)
	}
	parse("bench.json", doc)
	files, _ := filepath.Glob(filepath.Join("testdata", "eval", "tuning", "*.json"))
	for _, it := range loadEvalItems(t, files...) {
		server, _ := json.Marshal(it.Server)
		parse(it.ID+".json", []byte(`{"servers":[{"name":`+string(server)+`,"transport":"http","tools":[`+string(it.Tool)+`]}]}`))
	}
	parse("synthetic.json", syntheticInventory(t, 3000))
	var out []string
	for _, inv := range invs {
		for _, tl := range inv.Tools() {
			for _, mt := range ModelTexts(tl) {
				out = append(out, mt.Text)
			}
		}
	}
	return out
}

// gateCorpus is every text of corpusTexts, normalised and as written,
// and every sentence of it.
func gateCorpus(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, s := range corpusTexts(t) {
		a := Normalize(s)
		out = append(out, a.norm, s)
		for _, se := range a.sentences() {
			out = append(out, a.norm[se.i:se.j])
		}
	}
	return out
}

// TestPrefiltersNeedWords: the prefilters in use have words to look
// for (an empty one would let every text through, silently slower).
func TestPrefiltersNeedWords(t *testing.T) {
	for name, p := range map[string]prefilter{"argOverride": argOverrideGate, "disparageStrong": disparageStrongGate} {
		if len(p.need) == 0 {
			t.Errorf("%s: empty prefilter", name)
		}
	}
}

// TestPrefilterOfShapes: what prefilterOf makes of each construct, and
// that it gives up (lets everything through) where it must.
func TestPrefilterOfShapes(t *testing.T) {
	for _, c := range []struct {
		re   string
		want string
	}{
		{`abc`, "abc"},
		{`\b(ab|cd)e\b`, "abe cde"},
		{`x?yz`, "yz"},
		{`a*`, ""},
		{`(?i)abc`, ""},
		{`[a-z]+ foo`, " foo"},
		{`(foo|bar)+`, "bar foo"},
		{`foo|\w+`, ""},
		{`\bsilently,? (also )?([a-z]+)\b`, "silently  silently, "},
		{`(^|, )(keep|leave) it`, "keep it leave it"},
	} {
		got := prefilterOf(regexp.MustCompile(c.re)).need
		sort.Strings(got)
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: %q, want %q", c.re, got, c.want)
		}
	}
}

// TestGatesHoldWhereTheirExpressionsMatch: no gate is false where its
// expression matches, on any text of the corpus; and each expression
// matches somewhere, so the check is not empty. It runs in a single
// goroutine, where the race detector has nothing to find and takes ten
// times as long: it skips under -race, and make test runs it without.
func TestGatesHoldWhereTheirExpressionsMatch(t *testing.T) {
	skipUnderRace(t)
	corpus := gateCorpus(t)
	for _, g := range gates {
		n := 0
		for _, s := range corpus {
			for _, s := range []string{s, strings.TrimSpace(s)} {
				if g.re.MatchString(s) {
					n++
					if !g.gate(s) {
						t.Errorf("%s false on %q, which its expression matches", g.name, s)
					}
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: its expression matches nothing in the corpus", g.name)
		}
	}
}

// FuzzGates: no gate is false where its expression matches.
func FuzzGates(f *testing.F) {
	for _, s := range []string{
		"always tell the user it worked", "never call it first", "make sure this tool runs again", "always check other tools",
		"drop them from the summary", "leave it out of your reply", "set it regardless of what they say", "for all of the payments",
		"if the user asks where it goes", "fails unless you call it", "ensure the function before anything",
		"other tools leak your data", "they keep your files forever",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, g := range gates {
			if g.re.MatchString(s) && !g.gate(s) {
				t.Errorf("%s false on %q, which its expression matches", g.name, s)
			}
		}
	})
}

// FuzzPrefilters: a prefilter worked out from any expression holds
// wherever the expression matches.
func FuzzPrefilters(f *testing.F) {
	f.Add(`\b(ab|cd)e\b`, "xx cde")
	f.Add(`(foo|bar)+ baz?`, "barbar ba")
	f.Add(`x{2,3}y|z*`, "xxy")
	f.Add(`\bkeep (your|ur|the) \w+ forever\b`, "keep the files forever")
	f.Fuzz(func(t *testing.T, expr, s string) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		if re.MatchString(s) && !prefilterOf(re).may(s) {
			t.Errorf("%s: prefilter %q false on %q, which the expression matches", expr, prefilterOf(re).need, s)
		}
	})
}

// dottedCandidateByBytes is dottedCandidate as first written, one byte
// at a time.
func dottedCandidateByBytes(t string) bool {
	for k := 1; k+1 < len(t); k++ {
		if t[k] == '.' && isLetterByte(t[k-1]) && isLetterByte(t[k+1]) {
			return true
		}
	}
	return false
}

// FuzzDottedCandidate compares dottedCandidate with the byte loop.
func FuzzDottedCandidate(f *testing.F) {
	for _, s := range []string{"", ".", "a.b", "a.", ".a", "1.b", "a.1", "e.g. x", "calendar.create_event", "..a.b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := dottedCandidate(s), dottedCandidateByBytes(s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	})
}

// TestFeatureGatesOpenOnTheirPhrases: concealment and priority_override
// read sentence features as well as patterns, so every phrase of the
// lexicon that gives the feature they read (hiding, overriding) must
// open their gate, or a sentence built on it is never read.
func TestFeatureGatesOpenOnTheirPhrases(t *testing.T) {
	for _, g := range []struct {
		signal string
		f      feature
		min    int
	}{{"concealment", kHide, 100}, {"priority_override", kOverride, 30}} {
		var bit uint64
		for i := range defaultSignals {
			if defaultSignals[i].name == g.signal {
				bit = defaultSignals[i].bit
			}
		}
		n := 0
		for w, f := range lexicon {
			if f&g.f == 0 {
				continue
			}
			n++
			if candidates(Normalize("so the note is "+w+" here."))&bit == 0 {
				t.Errorf("%s: the phrase %q gives its feature but does not open its gate", g.signal, w)
			}
		}
		if n < g.min {
			t.Fatalf("%s: only %d phrases in the lexicon", g.signal, n)
		}
	}
}
