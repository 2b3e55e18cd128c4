package detect

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
)

// TestPoisonFromManyGoroutines: scans use every core, so Poison is
// called from several goroutines at once and shares its scratch pool and
// its lazily built tables between them. Each goroutine here reads the
// same tools (one writer's items, attacks and hard negatives) under both
// rule sets and must get what one goroutine got. Under -race this is the
// package's check of that sharing: the corpus-wide checks are single
// goroutine and run without -race (skipUnderRace).
func TestPoisonFromManyGoroutines(t *testing.T) {
	var tools []*engine.Tool
	for _, it := range loadEvalItems(t, filepath.Join("testdata", "eval", "tuning", "w1.json")) {
		server, _ := json.Marshal(it.Server)
		doc := `{"servers":[{"name":` + string(server) + `,"transport":"http","tools":[` + string(it.Tool) + `]}]}`
		inv, err := inventory.Parse(it.ID+".json", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, inv.Tools()...)
	}
	run := func() string {
		var out []byte
		for _, rs := range []RuleSet{RulesDefault, RulesReference} {
			for _, tl := range tools {
				out = fmt.Appendf(out, "%s %v\n", tl.Name, Poison(tl, rs))
			}
		}
		return string(out)
	}
	want := run()
	const n = 4
	got := make([]string, n)
	var wg sync.WaitGroup
	for g := range n {
		wg.Go(func() { got[g] = run() })
	}
	wg.Wait()
	for g, s := range got {
		if s != want {
			t.Errorf("goroutine %d found something else than one goroutine alone", g)
		}
	}
}
