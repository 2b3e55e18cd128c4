package detect

import "testing"

// TestSignalExamples runs every default signal on its own examples (it
// must fire) and counter examples (it must not), as each file lists them.
func TestSignalExamples(t *testing.T) {
	for i := range defaultSignals {
		sg := &defaultSignals[i]
		if len(sg.examples) == 0 || len(sg.counter) == 0 {
			t.Errorf("%s: needs examples and counter examples", sg.name)
		}
		for _, ex := range sg.examples {
			if ev, _ := sg.Match(Normalize(ex)); ev == "" {
				t.Errorf("%s does not fire on its example %q", sg.name, ex)
			}
		}
		for _, ex := range sg.counter {
			if ev, d := sg.Match(Normalize(ex)); ev != "" {
				t.Errorf("%s fires on its counter example %q: %s", sg.name, ex, d)
			}
		}
	}
}
