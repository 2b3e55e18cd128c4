package notify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/notify/notifytest"
)

// The attack of issue 12, item 10: whoever can make findings (a project
// folder with many servers, a server with many tools) floods the spool
// while the endpoint is down, and a plain oldest-first queue pushes out
// the POISON and the MUTATION it was there to carry. Real files, real
// spool; the cap is scaled down from 10,000 so the test stays fast.
func TestSpoolFloodOfLowFindingsNeverEvictsAHighOne(t *testing.T) {
	dir := t.TempDir()
	s, err := openSpool(dir, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	poison := NewMessage(opened(finding("poison", "POISON", "critical", "files")), "h")
	mutation := NewMessage(opened(finding("mutation", "MUTATION", "high", "files")), "h")
	for _, m := range []Message{poison, mutation} {
		if _, err := s.add(m, now); err != nil {
			t.Fatal(err)
		}
	}
	var dropped []Dropped
	flood := func(s *spool, n int, sev string) {
		for i := 0; i < n; i++ {
			d, err := s.add(NewMessage(opened(finding(fmt.Sprintf("junk%s%d", sev, i), "ADDED", sev, "junk")), "h"), now)
			if err != nil {
				t.Fatal(err)
			}
			dropped = append(dropped, d...)
		}
	}
	flood(s, 100, "medium")
	flood(s, 50, "low")
	// A restart in the middle: the severity comes back from the names.
	s, err = openSpool(dir, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	flood(s, 60, "low")
	kept := map[string]bool{}
	for _, e := range s.entries {
		kept[idOf(e.name)] = true
	}
	if !kept[poison.ID] || !kept[mutation.ID] {
		t.Fatalf("the flood evicted the critical/high deliveries (poison kept %v, mutation kept %v)", kept[poison.ID], kept[mutation.ID])
	}
	if s.len() != 100 {
		t.Errorf("%d spooled, want the cap of 100", s.len())
	}
	for _, d := range dropped {
		if d.Severity == engine.High || d.Severity == engine.Critical {
			t.Errorf("dropped %s (%s) while lower ones were queued", d.ID, d.Severity)
		}
	}
	// Lows go before mediums: 210 added past 2, cap 100, so 112 dropped;
	// the 110 lows first, then the 2 oldest mediums.
	lows, mediums := 0, 0
	for _, d := range dropped {
		switch d.Severity {
		case engine.Low:
			lows++
		case engine.Medium:
			mediums++
		}
	}
	if lows != 110 || mediums != 2 {
		t.Errorf("dropped %d low and %d medium, want 110 and 2", lows, mediums)
	}
	// When only highs are left, the oldest high goes, never a critical.
	hs, _ := openSpool(t.TempDir(), 2, 0)
	hs.add(poison, now)
	hs.add(mutation, now)
	d, _ := hs.add(NewMessage(opened(finding("mutation2", "MUTATION", "high", "files")), "h"), now)
	if len(d) != 1 || d[0].ID != mutation.ID {
		t.Errorf("all high or critical: dropped %v, want the oldest high %s", d, mutation.ID)
	}
}

// A spool written by the earlier version (no severity in the names) is
// read for its severities at start-up, and its names still give the id.
func TestSpoolReadsSeverityOfEarlierFileNames(t *testing.T) {
	dir := t.TempDir()
	s, _ := openSpool(dir, 2, 0)
	now := time.Unix(1_800_000_000, 0)
	s.add(NewMessage(opened(finding("crit", "POISON", "critical", "files")), "h"), now)
	s.add(NewMessage(opened(finding("low", "ADDED", "low", "files")), "h"), now)
	for _, e := range s.entries { // rename to the old form
		parts := strings.Split(e.name, ".")
		if err := os.Rename(filepath.Join(dir, "new", e.name), filepath.Join(dir, "new", parts[0]+"."+parts[1]+".json")); err != nil {
			t.Fatal(err)
		}
	}
	s, _ = openSpool(dir, 2, 0)
	d, _ := s.add(NewMessage(opened(finding("med", "ADDED", "medium", "files")), "h"), now)
	want := MessageID(opened(finding("low", "ADDED", "low", "files")))
	if len(d) != 1 || d[0].ID != want || d[0].Severity != engine.Low {
		t.Errorf("dropped %v, want the old-named low %s", d, want)
	}
}

// Through a real (down) endpoint: the report says what was dropped, by
// severity, and the high ones are delivered once the endpoint is back.
func TestWebhookSpoolFloodKeepsHighFindingsAndSaysWhatWasDropped(t *testing.T) {
	rcv := notifytest.NewReceiver(t, vectorSecret)
	rcv.Stop()
	w, reps := newTestWebhook(t, rcv.URL(), t.TempDir(), func(o *WebhookOptions) { o.MaxFiles = 20 })
	poison := finding("poison", "POISON", "critical", "files")
	mutation := finding("mutation", "MUTATION", "high", "files")
	w.Send(opened(poison))
	w.Send(opened(mutation))
	for i := 0; i < 40; i++ {
		w.Send(opened(finding(fmt.Sprintf("junk%d", i), "ADDED", "medium", "junk")))
	}
	ev := reps.wait(t, "spool full")
	if ev.Level != "error" || !strings.Contains(ev.Message, "1 medium") || !strings.Contains(ev.Message, "(medium)") {
		t.Errorf("overflow report does not say what was dropped: %q", ev.Message)
	}
	var all strings.Builder
	for _, r := range reps.all() {
		all.WriteString(r.Message)
	}
	if strings.Contains(all.String(), "(high)") || strings.Contains(all.String(), "(critical)") {
		t.Errorf("reports name a dropped high or critical delivery: %s", all.String())
	}
	rcv.Restart()
	got := rcv.WaitFor(t, "the spool after the endpoint came back", 20*time.Second, atLeast(20))
	seen := map[string]bool{}
	for _, d := range got {
		seen[d.ID] = true
	}
	if !seen[MessageID(opened(poison))] || !seen[MessageID(opened(mutation))] {
		t.Errorf("the POISON or the MUTATION was not delivered after the flood: %v", ids(got))
	}
}
