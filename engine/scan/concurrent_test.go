package scan

import (
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
)

// Scans running at once (the service scans several files) must see the
// same signals as one scan alone.
func TestDetectPoisonConcurrent(t *testing.T) {
	items := loadCorpus(t, "../../testdata/corpus/poison-dev.json")
	want := make([]string, len(items))
	for i, it := range items {
		want[i] = signalNames(scanItem(t, it))
	}
	// Each goroutine scans its own parse of every item, so distinct strings
	// with the same content are read at once.
	const workers = 4
	tools := make([][]*engine.Tool, workers)
	for g := range tools {
		for _, it := range items {
			inv := mustInv(t, `{"servers":[{"name":"s","tools":[`+string(it.Tool)+`]}]}`)
			tools[g] = append(tools[g], inv.Servers[0].Tools[0])
		}
	}
	done := make(chan string)
	for g := 0; g < workers; g++ {
		go func(g int) {
			for k := 0; k < 3; k++ {
				for n := range items {
					i := (n + g*7) % len(items)
					if got := signalNames(detect.Poison(tools[g][i], detect.RulesDefault)); got != want[i] {
						done <- items[i].ID + ": " + got + ", want " + want[i]
						return
					}
				}
			}
			done <- ""
		}(g)
	}
	for g := 0; g < workers; g++ {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}
