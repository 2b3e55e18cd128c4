package notifytest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Delivery is one request the receiver got.
type Delivery struct {
	At        time.Time
	ID        string // webhook-id
	Timestamp string // webhook-timestamp
	Signature string // webhook-signature
	Body      []byte
	Header    http.Header
	Verified  bool   // the Standard Webhooks signature checked out
	VerifyErr string // why not
	Status    int    // what the receiver answered (0: it hung up without answering)
}

// Response is what the receiver answers to one request.
type Response struct {
	Status int
	Header map[string]string
	// Hang keeps the request open, never answering, until the receiver
	// stops or the client gives up.
	Hang bool
}

// Receiver is a webhook endpoint on 127.0.0.1 that records every request
// and verifies its Standard Webhooks signature with its own code (the
// specification's algorithm, not notify's). It can be stopped (so
// connections are refused) and restarted on the same port.
type Receiver struct {
	t       testing.TB
	key     []byte
	addr    string
	mu      sync.Mutex
	ln      net.Listener
	srv     *http.Server
	got     []Delivery
	respond func(n int, d Delivery) Response
	stop    chan struct{}
	changed chan struct{}
}

// NewReceiver starts a receiver whose signing secret is secret ("whsec_"
// + base64; "" checks no signature). It answers 204 until told otherwise.
func NewReceiver(t testing.TB, secret string) *Receiver {
	t.Helper()
	r := &Receiver{t: t, changed: make(chan struct{}, 1)}
	if secret != "" {
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
		if err != nil {
			t.Fatalf("receiver secret: %v", err)
		}
		r.key = key
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.addr = ln.Addr().String()
	r.serve(ln)
	t.Cleanup(r.Stop)
	return r
}

// URL is the receiver's endpoint, with a path and query that stand for
// the secrets real webhook URLs carry.
func (r *Receiver) URL() string {
	return "http://" + r.addr + "/hooks/T0KEN-IN-PATH?sig=S3CRET-QUERY"
}

// Addr is host:port.
func (r *Receiver) Addr() string { return r.addr }

// Respond sets how the receiver answers: f gets the request's number
// (0-based, over the receiver's life) and what arrived.
func (r *Receiver) Respond(f func(n int, d Delivery) Response) {
	r.mu.Lock()
	r.respond = f
	r.mu.Unlock()
}

func (r *Receiver) serve(ln net.Listener) {
	stop := make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(r.handle), ReadHeaderTimeout: 5 * time.Second}
	r.mu.Lock()
	r.ln, r.srv, r.stop = ln, srv, stop
	r.mu.Unlock()
	go func() { _ = srv.Serve(ln) }()
}

// Stop closes the listener and every connection: new connections are
// refused (idempotent).
func (r *Receiver) Stop() {
	r.mu.Lock()
	srv, stop := r.srv, r.stop
	r.srv, r.stop = nil, nil
	r.mu.Unlock()
	if srv == nil {
		return
	}
	close(stop)
	_ = srv.Close()
}

// Restart listens on the same address again.
func (r *Receiver) Restart() {
	r.t.Helper()
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ {
		if ln, err = net.Listen("tcp", r.addr); err == nil {
			r.serve(ln)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	r.t.Fatalf("restarting the receiver on %s: %v", r.addr, err)
}

func (r *Receiver) handle(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	d := Delivery{
		At: time.Now(), ID: req.Header.Get("webhook-id"), Timestamp: req.Header.Get("webhook-timestamp"),
		Signature: req.Header.Get("webhook-signature"), Body: body, Header: req.Header.Clone(),
	}
	if err := r.verify(d); err != nil {
		d.VerifyErr = err.Error()
	} else {
		d.Verified = true
	}
	r.mu.Lock()
	n := len(r.got)
	respond, stop := r.respond, r.stop
	r.mu.Unlock()
	resp := Response{Status: http.StatusNoContent}
	if respond != nil {
		resp = respond(n, d)
	}
	if !resp.Hang {
		d.Status = resp.Status
	}
	r.mu.Lock()
	r.got = append(r.got, d)
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default:
	}
	if resp.Hang {
		select {
		case <-req.Context().Done():
		case <-stop:
		}
		return
	}
	for k, v := range resp.Header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(resp.Status)
}

// verify checks a delivery the way the Standard Webhooks specification
// says a consumer does: the signed content is id.timestamp.body, the
// header holds space-separated "v1,<base64>" signatures, one must match
// (compared in constant time), and the timestamp must be within five
// minutes.
func (r *Receiver) verify(d Delivery) error {
	if r.key == nil {
		return errors.New("no secret to verify with")
	}
	if d.ID == "" || d.Timestamp == "" || d.Signature == "" {
		return errors.New("missing webhook-id, webhook-timestamp or webhook-signature")
	}
	ts, err := strconv.ParseInt(d.Timestamp, 10, 64)
	if err != nil {
		return errors.New("webhook-timestamp is not an integer")
	}
	if skew := time.Since(time.Unix(ts, 0)); skew > 5*time.Minute || skew < -5*time.Minute {
		return errors.New("webhook-timestamp outside the tolerance")
	}
	m := hmac.New(sha256.New, r.key)
	m.Write([]byte(d.ID + "." + d.Timestamp + "."))
	m.Write(d.Body)
	want := m.Sum(nil)
	for _, sig := range strings.Fields(d.Signature) {
		v, b64, ok := strings.Cut(sig, ",")
		if !ok || v != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(b64)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return errors.New("no matching v1 signature")
}

// Deliveries returns what arrived so far.
func (r *Receiver) Deliveries() []Delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Delivery(nil), r.got...)
}

// WaitFor waits until ok(deliveries) holds, failing after timeout.
func (r *Receiver) WaitFor(t testing.TB, what string, timeout time.Duration, ok func([]Delivery) bool) []Delivery {
	t.Helper()
	deadline := time.After(timeout)
	for {
		if d := r.Deliveries(); ok(d) {
			return d
		}
		select {
		case <-r.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("receiver: no %s within %v; got %d requests", what, timeout, len(r.Deliveries()))
		}
	}
}
