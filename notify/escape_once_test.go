package notify

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Issue 11: an open finding carries descriptor text as found, and each
// writer escapes it exactly once. The text holds a real ESC, a real bidi
// override and a literal backslash sequence; once escaped, the ESC and
// the override are \x1b and \u202e, and the literal `\x1b` the
// description wrote stays one backslash (an escaper applied to its own
// output, or one that escapes backslashes, would change it).
const asFound = "read \x1b[31m \u202eevil\u202c C:\\x1b\\dir"

func asFoundFinding() *engine.OpenFinding {
	f := finding("e", "MUTATION", "high", "srv\u202e")
	f.Summary = "MUTATION srv/t: " + asFound
	f.Details = []string{"    pinned:  " + asFound}
	return f
}

func escapedOnce(t *testing.T, writer, got, raw string) {
	t.Helper()
	want := sanitize.Text(raw)
	if got != want {
		t.Errorf("%s: %q, want %q (escaped once)", writer, got, want)
	}
	if strings.ContainsAny(got, "\x1b\u202e") {
		t.Errorf("%s: raw control characters reached it: %q", writer, got)
	}
	if strings.Contains(got, `\\x1b`) {
		t.Errorf("%s: the backslash was doubled: %q", writer, got)
	}
}

func TestDescriptorTextIsEscapedOnceByEachWriter(t *testing.T) {
	f := asFoundFinding()
	ev := opened(f)
	ev.Message = f.Summary

	// The event log.
	m := parse(t, lines(t, ev)[0])
	escapedOnce(t, "event log summary", get(m, "descriptorpin.finding.summary").(string), f.Summary)
	escapedOnce(t, "event log message", get(m, "message").(string), f.Summary)
	escapedOnce(t, "event log server", get(m, "descriptorpin.finding.server").(string), f.Server)

	// Webhook bodies, in every format.
	msg := NewMessage(ev, "host")
	escapedOnce(t, "webhook summary", msg.Data.Summary, f.Summary)
	escapedOnce(t, "webhook detail", msg.Data.Details[0], strings.TrimSpace(f.Details[0]))
	body, err := Render(FormatStandard, msg)
	if err != nil {
		t.Fatal(err)
	}
	var std struct {
		Data struct {
			Summary string `json:"summary"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &std); err != nil {
		t.Fatal(err)
	}
	escapedOnce(t, "standard webhook body", std.Data.Summary, f.Summary)
	for _, format := range []string{FormatSlack, FormatTeams} {
		b, err := Render(format, msg)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), `\\\\x1b`) || strings.Contains(string(b), "\x1b") || strings.Contains(string(b), "\u202e") {
			t.Errorf("%s body escapes twice or not at all: %s", format, b)
		}
	}

	// The desktop notification.
	fake := &fakeNotifier{}
	d, _ := newTestDesktop(t, fake, nil)
	d.Send(ev)
	n := fake.wait(t, 1)[0]
	if !strings.Contains(n.Body, oneLine("[high] "+f.Summary, maxLineRunes)) || strings.Contains(n.Body, `\\x1b`) || strings.ContainsAny(n.Body, "\x1b\u202e") {
		t.Errorf("desktop body %q, want the line escaped once", n.Body)
	}

	// The finding itself is left as found for the next writer.
	if f.Summary != "MUTATION srv/t: "+asFound {
		t.Errorf("a writer changed the finding: %q", f.Summary)
	}
}
