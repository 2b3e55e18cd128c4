package launch

import "testing"

func TestLaunchRuleExamples(t *testing.T) {
	for _, r := range Rules {
		for _, s := range r.Examples {
			if r.Check(s, 0) == "" {
				t.Errorf("%s does not fire on its example %s %v %s", r.Name, s.Command, s.Args, s.URL)
			}
		}
		for _, s := range r.Counter {
			if d := r.Check(s, 0); d != "" {
				t.Errorf("%s fires on its counter example %s %v %s: %s", r.Name, s.Command, s.Args, s.URL, d)
			}
		}
	}
}
