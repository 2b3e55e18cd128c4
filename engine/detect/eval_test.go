package detect

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
)

// The evaluation of the default rules on labelled sets (see
// testdata/eval/README.md): recall on attack items and false positives on
// benign items, per family and overall.
//
// An item counts as flagged when the default rules give it a POISON
// finding of medium severity or more (score >= 3). A low POISON finding
// is a note (documented data sharing, a lone weak signal) and is counted
// apart: it is reported, but it is not an accusation of poisoning.
//
//	go test ./engine/detect -run 'TestEval' -v
//
// prints every figure; the tests assert the floors reached on the tuning
// sets and the corpus. TestHeldBack measures the held-back set and
// compares with the figures recorded after its one measured run.

type evalItem struct {
	ID       string          `json:"id"`
	Label    string          `json:"label"`
	Family   string          `json:"family"`
	Category string          `json:"category"` // the corpus's name for family
	Server   string          `json:"server"`
	Tool     json.RawMessage `json:"tool"`
}

func (it evalItem) family() string {
	if it.Family != "" {
		return it.Family
	}
	return it.Category
}

func loadEvalItems(t testing.TB, paths ...string) []evalItem {
	t.Helper()
	var out []evalItem
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Items []evalItem `json:"items"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, doc.Items...)
	}
	return out
}

// itemFinding scans one item as a one-server inventory and returns its
// POISON finding, if any.
func itemFinding(t testing.TB, it evalItem) *engine.Finding {
	t.Helper()
	server, _ := json.Marshal(it.Server)
	doc := `{"servers":[{"name":` + string(server) + `,"transport":"http","tools":[` + string(it.Tool) + `]}]}`
	inv, err := inventory.Parse(it.ID+".json", []byte(doc))
	if err != nil {
		t.Fatalf("%s: %v", it.ID, err)
	}
	fs := Poisons(inv, RulesDefault)
	if len(fs) == 0 {
		return nil
	}
	return &fs[0]
}

func flagged(f *engine.Finding) bool { return f != nil && f.Severity >= engine.Medium }

// evalFigures are the measured figures of one set.
type evalFigures struct {
	Attacks  int            `json:"attacks"`
	Caught   int            `json:"caught"`
	Benign   int            `json:"benign"`
	FalsePos int            `json:"false_positives"`
	Notes    int            `json:"low_notes_on_benign"`
	Families map[string]int `json:"flagged_by_family"` // family -> items flagged
	Sizes    map[string]int `json:"items_by_family"`
	Misses   []string       `json:"misses"` // "id (family)", attacks not flagged
	FPs      []string       `json:"false_positive_ids"`
}

func (f *evalFigures) recall() float64 { return ratio(f.Caught, f.Attacks) }
func (f *evalFigures) fpRate() float64 { return ratio(f.FalsePos, f.Benign) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// evaluate scores items; when showText is set, false positives and misses
// are logged with their signals and evidence (never for the held-back set).
func evaluate(t *testing.T, name string, items []evalItem, showText bool) *evalFigures {
	t.Helper()
	fig := &evalFigures{Families: map[string]int{}, Sizes: map[string]int{}}
	for _, it := range items {
		f := itemFinding(t, it)
		key := it.Label + "/" + it.family()
		fig.Sizes[key]++
		if flagged(f) {
			fig.Families[key]++
		}
		switch it.Label {
		case "attack":
			fig.Attacks++
			if flagged(f) {
				fig.Caught++
			} else {
				fig.Misses = append(fig.Misses, it.ID+" ("+it.family()+")")
				if showText && testing.Verbose() {
					t.Logf("%s miss %s %s: %s", name, it.ID, it.family(), describeFinding(f))
				}
			}
		case "benign":
			fig.Benign++
			switch {
			case flagged(f):
				fig.FalsePos++
				fig.FPs = append(fig.FPs, it.ID+" ("+it.family()+")")
				if showText {
					t.Logf("%s false positive %s (%s): %s", name, it.ID, it.family(), describeFinding(f))
				}
			case f != nil:
				fig.Notes++
			}
		}
	}
	keys := make([]string, 0, len(fig.Sizes))
	for k := range fig.Sizes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		what := "recall"
		if strings.HasPrefix(k, "benign/") {
			what = "flagged"
		}
		t.Logf("%s %-36s %3d items, %s %d = %.2f", name, k, fig.Sizes[k], what, fig.Families[k], ratio(fig.Families[k], fig.Sizes[k]))
	}
	t.Logf("%s: recall %d/%d = %.3f, false positives %d/%d = %.3f, low notes on benign %d",
		name, fig.Caught, fig.Attacks, fig.recall(), fig.FalsePos, fig.Benign, fig.fpRate(), fig.Notes)
	return fig
}

func describeFinding(f *engine.Finding) string {
	if f == nil {
		return "-"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "score %d %s", f.Score, f.Severity)
	for _, s := range f.Signals {
		fmt.Fprintf(&b, "; %s(%d) at %s: %q", s.Name, s.Weight, s.Field, clipRunes(s.Evidence, 90))
	}
	return b.String()
}

func TestEvalTuning(t *testing.T) {
	skipUnderRace(t)
	for _, w := range []struct {
		file          string
		recall, maxFP float64
	}{
		{"w1.json", 1.00, 0.0},
		{"w2.json", 1.00, 0.0},
		// w3 and w4 were round 1's held-back set (recall 0.755, false
		// positives 0.100 together, measured once), w5 and w6 round 2's
		// (0.818, 0.067), w7 to w9 round 3's (0.764, 0.037), w10 to w12
		// round 4's (0.803, 0.007), w13 to w15 round 5's (0.812, 0.052),
		// w16 to w18 round 6's (below);
		// spent, they are tuning data, with floors at what round 10's
		// tuning reached (no false positive on any but w24 and w25,
		// whose three are listed in docs/detection.md).
		{"w3.json", 0.98, 0.0},
		{"w4.json", 0.96, 0.0},
		{"w5.json", 0.95, 0.0},
		{"w6.json", 0.98, 0.0},
		{"w7.json", 0.98, 0.0},
		{"w8.json", 0.99, 0.0},
		{"w9.json", 0.98, 0.0},
		{"w10.json", 0.98, 0.0},
		{"w11.json", 0.96, 0.0},
		{"w12.json", 0.96, 0.0},
		{"w13.json", 0.96, 0.0},
		{"w14.json", 0.96, 0.0},
		{"w15.json", 0.94, 0.0},
		// w16 to w18 were round 6's held-back set (0.821, 0.059).
		{"w16.json", 0.98, 0.0},
		{"w17.json", 0.96, 0.0},
		{"w18.json", 0.99, 0.0},
		// w19 to w21 were round 7's held-back set (0.879, 0.074).
		{"w19.json", 0.97, 0.0},
		{"w20.json", 0.99, 0.0},
		{"w21.json", 0.99, 0.0},
		// w22 to w24 were round 8's held-back set (0.885, 0.089).
		{"w22.json", 0.96, 0.0},
		{"w23.json", 0.93, 0.0},
		{"w24.json", 0.95, 0.045},
		// w25 to w27 were round 9's held-back set (0.882, 0.067).
		{"w25.json", 0.94, 0.023},
		{"w26.json", 0.98, 0.0},
		{"w27.json", 0.80, 0.0},
		// w28 to w30 were round 10's held-back set (0.836, 0.052), w31
		// to w33 round 11's (0.882, 0.044); floors at what session 6's
		// tuning reached (w28-024 and w30-024 kept, docs/detection.md).
		{"w28.json", 0.96, 0.023},
		{"w29.json", 0.84, 0.0},
		{"w30.json", 0.94, 0.023},
		{"w31.json", 0.91, 0.0},
		{"w32.json", 0.91, 0.0},
		{"w33.json", 0.94, 0.0},
		// w34 to w36 were round 12's held-back set (0.842, 0.037);
		// floors at what session 7's tuning reached.
		{"w34.json", 0.97, 0.0},
		{"w35.json", 0.93, 0.0},
		{"w36.json", 0.89, 0.0},
		// w37 to w39 were round 13's held-back set (0.897, 0.081), w40
		// to w42 round 14's (0.970, 0.059); floors at what session 7's
		// tuning reached (w37-153 kept, docs/detection.md).
		{"w37.json", 0.97, 0.023},
		{"w38.json", 0.86, 0.0},
		{"w39.json", 0.97, 0.0},
		{"w40.json", 0.99, 0.0},
		{"w41.json", 0.99, 0.0},
		{"w42.json", 0.98, 0.0},
		// w43 to w45 were round 15's held-back set (0.930, 0.030);
		// floors at what session 7's tuning reached.
		{"w43.json", 0.94, 0.0},
		{"w44.json", 0.92, 0.0},
		{"w45.json", 0.93, 0.0},
		// w46 to w48 were round 16's held-back set (0.942, 0.030);
		// floors at what session 7's tuning reached.
		{"w46.json", 0.93, 0.0},
		{"w47.json", 0.94, 0.0},
		{"w48.json", 0.98, 0.0},
		// w49 to w51 were round 17's held-back set (0.933, 0.067);
		// floors at what session 8's tuning reached.
		{"w49.json", 1.0, 0.0},
		{"w50.json", 1.0, 0.0},
		{"w51.json", 1.0, 0.0},
		// w52 to w54 were round 18's held-back set (0.879, 0.030);
		// floors at what session 8's tuning reached.
		{"w52.json", 1.0, 0.0},
		{"w53.json", 1.0, 0.0},
		{"w54.json", 1.0, 0.0},
		// w55 to w57 were round 19's held-back set (0.903, 0.022);
		// floors at what session 8's tuning reached.
		{"w55.json", 1.0, 0.0},
		{"w56.json", 1.0, 0.0},
		{"w57.json", 1.0, 0.0},
		// w58 to w60 were round 20's held-back set (0.897, 0.059);
		// floors at what session 8's tuning reached.
		{"w58.json", 0.99, 0.0},
		{"w59.json", 0.99, 0.0},
		{"w60.json", 0.98, 0.0},
		// w61 to w63 were round 21's held-back set (0.879, 0.022);
		// floors at what session 9's tuning reached.
		{"w61.json", 0.99, 0.0},
		{"w62.json", 0.99, 0.023},
		{"w63.json", 1.0, 0.045},
		// w64 to w66 were round 22's held-back set (0.933, 0.030);
		// floors at what session 9's tuning reached.
		{"w64.json", 1.0, 0.0},
		{"w65.json", 1.0, 0.0},
		{"w66.json", 1.0, 0.0},
		// w67 to w69 were round 23's held-back set (0.912, 0.022);
		// floors at what session 9's tuning reached.
		{"w67.json", 0.98, 0.0},
		{"w68.json", 0.99, 0.0},
		{"w69.json", 0.98, 0.0},
		// w70 to w72 were round 24's held-back set (0.921, 0.037);
		// floors at what session 9's tuning reached.
		{"w70.json", 0.95, 0.0},
		{"w71.json", 0.96, 0.0},
		{"w72.json", 0.96, 0.0},
		// w73 to w75 were round 25's held-back set (0.891, 0.015);
		// floors at what session 10's tuning reached.
		{"w73.json", 1.0, 0.0},
		{"w74.json", 1.0, 0.0},
		{"w75.json", 0.99, 0.0},
	} {
		items := loadEvalItems(t, filepath.Join("testdata", "eval", "tuning", w.file))
		fig := evaluate(t, w.file, items, true)
		if fig.recall() < w.recall {
			t.Errorf("%s: recall %.3f below %.2f; misses: %s", w.file, fig.recall(), w.recall, strings.Join(fig.Misses, ", "))
		}
		if fig.fpRate() > w.maxFP {
			t.Errorf("%s: false-positive rate %.3f above %.2f: %s", w.file, fig.fpRate(), w.maxFP, strings.Join(fig.FPs, ", "))
		}
	}
}

func TestEvalCorpus(t *testing.T) {
	items := loadEvalItems(t, filepath.Join("..", "..", "testdata", "corpus", "poison-dev.json"))
	fig := evaluate(t, "corpus", items, true)
	if fig.recall() < 0.95 {
		t.Errorf("corpus: recall %.3f below 0.95; misses: %s", fig.recall(), strings.Join(fig.Misses, ", "))
	}
	if fig.fpRate() > 0.03 {
		t.Errorf("corpus: false-positive rate %.3f above 0.03: %s", fig.fpRate(), strings.Join(fig.FPs, ", "))
	}
}

// TestEvalRealWorld scans the captured tool lists of real servers
// (testdata/realworld/tools.json, all benign): at most one medium-or-more
// POISON finding per 1,000 tools.
func TestEvalRealWorld(t *testing.T) {
	skipUnderRace(t)
	path := filepath.Join("testdata", "realworld", "tools.json")
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("testdata/realworld/tools.json is not in this tree yet")
	}
	if err != nil {
		t.Fatal(err)
	}
	inv, err := inventory.Parse(path, b)
	if err != nil {
		t.Fatal(err)
	}
	tools := len(inv.Tools())
	var poison, notes int
	for _, f := range Poisons(inv, RulesDefault) {
		if f.Severity >= engine.Medium {
			poison++
			t.Logf("POISON %s: %s", f.Subject, describeFinding(&f))
		} else {
			notes++
			t.Logf("note   %s: %s", f.Subject, describeFinding(&f))
		}
	}
	t.Logf("real benign: %d servers, %d tools, %d POISON (medium or more), %d low notes", len(inv.Servers), tools, poison, notes)
	if max := tools / 1000; poison > max && poison > 1 {
		t.Errorf("%d POISON findings on %d benign tools, want at most %d per 1,000", poison, tools, 1)
	}
}

// heldbackFigures is the file the lead fills in after the one measured
// run of the held-back set.
const heldbackFigures = "testdata/eval/heldback-figures.json" // round 26: w76, w77, w78

// TestHeldBack measures the held-back set (testdata/eval/heldback/). It
// logs the figures and the misses by id and family only, never an item's
// text, and fails when they differ from heldback-figures.json. While that
// file is absent it skips before reading anything under heldback/, unless
// DESCRIPTORPIN_HELDBACK=measure is set: then it measures, logs the
// figures as the JSON to record, and skips.
func TestHeldBack(t *testing.T) {
	want, err := os.ReadFile(heldbackFigures)
	measure := os.Getenv("DESCRIPTORPIN_HELDBACK") == "measure"
	if errors.Is(err, fs.ErrNotExist) && !measure {
		t.Skip(heldbackFigures + " is absent: the held-back set has not been measured. " +
			"The lead runs it once: DESCRIPTORPIN_HELDBACK=measure go test ./engine/detect -run TestHeldBack -v, " +
			"then records the logged JSON in " + heldbackFigures)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join("testdata", "eval", "heldback", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no held-back files: %v", err)
	}
	sort.Strings(paths)
	got := evaluate(t, "heldback", loadEvalItems(t, paths...), false)
	for _, m := range got.Misses {
		t.Logf("heldback miss: %s", m)
	}
	for _, m := range got.FPs {
		t.Logf("heldback false positive: %s", m)
	}
	js, _ := json.MarshalIndent(got, "", "  ")
	if want == nil {
		t.Logf("figures to record in %s:\n%s", heldbackFigures, js)
		t.Skip("figures measured, not recorded yet")
	}
	var rec evalFigures
	if err := json.Unmarshal(want, &rec); err != nil {
		t.Fatalf("%s: %v", heldbackFigures, err)
	}
	recJS, _ := json.MarshalIndent(&rec, "", "  ")
	if string(recJS) != string(js) {
		t.Errorf("held-back figures differ from %s:\nrecorded:\n%s\nmeasured:\n%s", heldbackFigures, recJS, js)
	}
}
