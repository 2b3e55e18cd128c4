package detect

import (
	"testing"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
)

// BenchmarkPoison times detection alone (Poison over every tool of the
// clean 1,000-tool bench inventory, bench/invgen's default seed) and
// reports tools per second on one core:
//
//	go test -run='^$' -bench=Poison -cpu=1 ./engine/detect/
func BenchmarkPoison(b *testing.B) {
	doc, err := invgen.Generate(invgen.Options{Servers: 20, Tools: 50, Seed: invgen.DefaultSeed})
	if err != nil {
		b.Fatal(err)
	}
	inv, err := inventory.Parse("inv.json", doc)
	if err != nil {
		b.Fatal(err)
	}
	tools := inv.Tools()
	for _, rs := range []RuleSet{RulesDefault, RulesReference} {
		b.Run("rules="+string(rs), func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				for _, t := range tools {
					Poison(t, rs)
				}
			}
			b.ReportMetric(float64(b.N*len(tools))/b.Elapsed().Seconds(), "tools/s")
		})
	}
}

var _ = engine.Low
