package scan

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
)

// The labelled corpus (testdata/corpus/poison-dev.json, see
// ../shared/corpus/README.md): recall on attack items, false positives on
// benign items, per category, with the default rules. Each item is scanned
// as a one-server inventory, as a client that has only that server would.

type corpusItem struct {
	ID       string          `json:"id"`
	Label    string          `json:"label"`
	Category string          `json:"category"`
	Why      string          `json:"why"`
	Server   string          `json:"server"`
	Tool     json.RawMessage `json:"tool"`
}

func loadCorpus(t testing.TB, path string) []corpusItem {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Items []corpusItem `json:"items"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Items
}

// scanItem returns the POISON signals the default rules report for one
// item, scanned as a one-server inventory.
func scanItem(t testing.TB, it corpusItem) []engine.Signal {
	t.Helper()
	server, _ := json.Marshal(it.Server)
	doc := `{"servers":[{"name":` + string(server) + `,"transport":"http","tools":[` + string(it.Tool) + `]}]}`
	inv, err := inventory.Parse(it.ID+".json", []byte(doc))
	if err != nil {
		t.Fatalf("%s: %v", it.ID, err)
	}
	r := Scan(inv, nil, ScanOptions{Rules: detect.RulesDefault, Classes: []engine.Class{engine.Poison}})
	var sigs []engine.Signal
	for _, f := range r.Findings {
		sigs = append(sigs, f.Signals...)
	}
	return sigs
}

func signalNames(sigs []engine.Signal) string {
	var names []string
	for _, s := range sigs {
		names = append(names, s.Name)
	}
	return strings.Join(names, ",")
}

func TestCorpusRecallAndFalsePositives(t *testing.T) {
	items := loadCorpus(t, "../../testdata/corpus/poison-dev.json")
	type tally struct{ n, flagged int }
	per := map[string]*tally{}
	var attacks, caught, benign, fps int
	var misses, falsePos []string
	for _, it := range items {
		sigs := scanItem(t, it)
		key := it.Label + "/" + it.Category
		if per[key] == nil {
			per[key] = &tally{}
		}
		per[key].n++
		if len(sigs) > 0 {
			per[key].flagged++
		}
		switch it.Label {
		case "attack":
			attacks++
			if len(sigs) > 0 {
				caught++
			} else {
				misses = append(misses, it.ID+" ("+it.Category+")")
			}
		case "benign":
			benign++
			if len(sigs) > 0 {
				fps++
				falsePos = append(falsePos, fmt.Sprintf("%s (%s): %s", it.ID, it.Category, signalNames(sigs)))
			}
		}
		if testing.Verbose() {
			t.Logf("%s %-9s %-22s %s", it.ID, it.Label, it.Category, signalNames(sigs))
		}
	}
	keys := make([]string, 0, len(per))
	for k := range per {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := per[k]
		what := "recall"
		if strings.HasPrefix(k, "benign/") {
			what = "false positives"
		}
		t.Logf("%-36s %2d items, %s %d/%d = %.2f", k, v.n, what, v.flagged, v.n, float64(v.flagged)/float64(v.n))
	}
	recall := float64(caught) / float64(attacks)
	fpRate := float64(fps) / float64(benign)
	t.Logf("recall %d/%d = %.3f; false positives %d/%d = %.3f", caught, attacks, recall, fps, benign, fpRate)
	t.Logf("misses: %v", misses)
	t.Logf("false positives: %v", falsePos)
	if recall < 0.95 {
		t.Errorf("recall %.3f is below 0.95; misses %v", recall, misses)
	}
	if fpRate > 0.03 {
		t.Errorf("false-positive rate %.3f is above 0.03: %v", fpRate, falsePos)
	}
}
