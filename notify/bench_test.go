package notify

import (
	"fmt"
	"testing"
	"time"
)

// What a Send costs the service loop: the webhook writes and fsyncs one
// spool file; the desktop only queues.

func BenchmarkWebhookSendSpools(b *testing.B) {
	w, err := NewWebhook(WebhookOptions{URL: "http://127.0.0.1:1/x", SpoolDir: b.TempDir(), MaxFiles: 1 << 30, MaxBytes: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	// The spool only: no worker, so nothing is delivered or deleted.
	if w.spool, err = openSpool(w.opt.SpoolDir, w.opt.MaxFiles, w.opt.MaxBytes); err != nil {
		b.Fatal(err)
	}
	evs := make([]Message, 64)
	for i := range evs {
		evs[i] = NewMessage(opened(finding(fmt.Sprint(i), "MUTATION", "high", "files-local")), "host")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := w.spool.add(evs[i%len(evs)], time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDesktopSendQueues(b *testing.B) {
	d := NewDesktop(DesktopOptions{backend: &fakeNotifier{}, QueueSize: 1 << 20, Window: time.Hour})
	ev := opened(finding("a", "MUTATION", "high", "files-local"))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d.Send(ev)
	}
}

func BenchmarkRenderStandardAndSign(b *testing.B) {
	m := NewMessage(opened(finding("a", "MUTATION", "high", "files-local")), "host")
	key, _ := DecodeSecret(vectorSecret)
	for i := 0; i < b.N; i++ {
		body, _ := Render(FormatStandard, m)
		Sign(key, m.ID, 1_800_000_000, body)
	}
}
