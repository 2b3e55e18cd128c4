package capture

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// Issue 12, item 17: a server that prints its env secret to stderr had it
// shown in the failure reason (inventory's output, the service's events).
// A real process, given the secret through a ${env:...} reference, prints
// it split across two writes and exits.
func TestStderrTailRedactsTheServersKnownValues(t *testing.T) {
	t.Parallel()
	const secret = "correct-horse-battery-staple" // nothing token-shaped: LooksSecret alone misses it
	const argSecret = "plain-words-in-argv"
	s := stdioServer("leaky", "-mode", "leak", "-show-env", "API_KEY", "--", "${env:ARG_SECRET}")
	s.Env = map[string]string{"API_KEY": "${env:MY_KEY}"}
	r := Capture(context.Background(), s, "", opts(20*time.Second, "MY_KEY", secret, "ARG_SECRET", argSecret))
	var ce *Error
	if !errors.As(r.Err, &ce) {
		t.Fatalf("want a capture error, got %v", r.Err)
	}
	msg := ce.Error()
	if !strings.Contains(msg, "auth failed for") || !strings.Contains(msg, "(argv") {
		t.Fatalf("the reason does not show the stderr tail: %q", msg)
	}
	for _, leaked := range []string{secret, "battery", "staple", argSecret} {
		if strings.Contains(msg, leaked) {
			t.Errorf("the stderr tail shows %q: %q", leaked, msg)
		}
	}
	if !strings.Contains(msg, "REDACTED") {
		t.Errorf("no REDACTED in %q", msg)
	}
}

func TestTailRedactsValuesSplitAcrossWritesAndAtTheEnd(t *testing.T) {
	known := knownValues(map[string]string{"K": "s3cret-value", "SHORT": "on"}, nil, nil)
	tl := &tail{max: 64, known: known}
	for _, w := range []string{"key=s3c", "ret-va", "lue ok on\nlast s3cret-v"} {
		tl.Write([]byte(w))
	}
	got := string(tl.text())
	if strings.Contains(got, "s3c") || strings.Contains(got, "ret-va") {
		t.Errorf("tail %q shows part of a known value", got)
	}
	if got != "key=REDACTED ok on\nlast REDACTED" {
		t.Errorf("tail %q", got)
	}
	// The cap cuts the redacted text, never a raw value.
	tl = &tail{max: 10, known: known}
	tl.Write([]byte("xxxxxxxxxxxxxxxxxxxs3cret-valueyy"))
	if got := string(tl.text()); strings.Contains(got, "value") || strings.Contains(got, "s3") {
		t.Errorf("capped tail %q", got)
	}
}
