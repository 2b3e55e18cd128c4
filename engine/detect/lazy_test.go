package detect

import (
	"regexp"
	"testing"
)

// TestLazyExpressionsCompile compiles every lazy expression, so a bad
// pattern fails here and not on the first text that reaches it.
func TestLazyExpressionsCompile(t *testing.T) {
	if len(lazyAll) < 100 {
		t.Fatalf("only %d lazy expressions registered", len(lazyAll))
	}
	for _, l := range lazyAll {
		if _, err := regexp.Compile(l.source()); err != nil {
			t.Errorf("%q: %v", l.source(), err)
		}
	}
}
