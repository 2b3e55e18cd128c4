// Package notifytest holds test doubles for the notify sinks, shared by the
// notify tests and the end-to-end tests of the command: a private D-Bus
// session bus (a real dbus-daemon), a freedesktop notification server that
// records what it is asked to show, and a webhook receiver that verifies
// Standard Webhooks signatures on its own (not with notify's code).
//
// It is for tests only; nothing in the program imports it.
package notifytest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// Bus is a private session bus: a dbus-daemon started for one test and
// killed when it ends.
type Bus struct {
	Address string // for DBUS_SESSION_BUS_ADDRESS
	cmd     *exec.Cmd
}

// StartBus starts `dbus-daemon --nofork --print-address` with a session
// config of its own (a socket in a fresh directory, no service
// activation). The test is skipped, saying so, only when dbus-daemon is
// not installed (.ci/setup installs it).
func StartBus(t testing.TB) *Bus {
	t.Helper()
	bin, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon is not installed (apt-get install dbus; .ci/setup does it): skipping the D-Bus test")
	}
	dir, err := os.MkdirTemp("", "dpbus") // short: a socket path is at most ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	conf := filepath.Join(dir, "session.conf")
	err = os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=`+filepath.Join(dir, "bus")+`</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config-file="+conf, "--nofork", "--nopidfile", "--print-address")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer // its warnings (an fd limit it cannot raise in a container) only matter when a test fails
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting dbus-daemon: %v", err)
	}
	b := &Bus{cmd: cmd}
	t.Cleanup(func() {
		b.Stop()
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("dbus-daemon stderr:\n%s", stderr.String())
		}
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case b.Address = <-line:
	case <-time.After(10 * time.Second):
		t.Fatal("dbus-daemon printed no address within 10s")
	}
	if b.Address == "" {
		t.Fatal("dbus-daemon printed no address")
	}
	return b
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Stop kills the bus (idempotent).
func (b *Bus) Stop() {
	if b.cmd.ProcessState == nil {
		_ = b.cmd.Process.Kill()
		_ = b.cmd.Wait()
	}
}

// Call is one Notify call the server received.
type Call struct {
	At         time.Time // when it arrived
	AppName    string
	ReplacesID uint32
	Icon       string
	Summary    string
	Body       string
	Hints      map[string]dbus.Variant
	ID         uint32 // what the server answered
}

// Server is a freedesktop notification server on a Bus. It records every
// Notify call and answers like a real one: a new id, or the replaced id
// when replaces_id names one it showed.
type Server struct {
	conn    *dbus.Conn
	mu      sync.Mutex
	calls   []Call
	nextID  uint32
	caps    []string
	hang    chan struct{} // non-nil: never answer (until the test ends)
	changed chan struct{}
}

// ServerOptions shapes a Server.
type ServerOptions struct {
	// Capabilities answered by GetCapabilities (default "body",
	// "body-markup": the server reads markup, so the client must escape).
	Capabilities []string
	// Hang makes every call go unanswered until the test ends.
	Hang bool
	// Replaceable lets a later server take the name (AllowReplacement);
	// TakeOver takes it from a Replaceable owner (ReplaceExisting), as a
	// notification daemon started after another does.
	Replaceable, TakeOver bool
}

// NewServer connects to the bus, exports the server at
// /org/freedesktop/Notifications and owns org.freedesktop.Notifications.
func (b *Bus) NewServer(t testing.TB, opt ServerOptions) *Server {
	t.Helper()
	conn, err := dbus.Connect(b.Address)
	if err != nil {
		t.Fatalf("connecting the test notification server: %v", err)
	}
	s := &Server{conn: conn, caps: opt.Capabilities, changed: make(chan struct{}, 1)}
	if s.caps == nil {
		s.caps = []string{"body", "body-markup"}
	}
	if opt.Hang {
		s.hang = make(chan struct{})
	}
	t.Cleanup(func() {
		if s.hang != nil {
			close(s.hang)
		}
		conn.Close()
	})
	if err := conn.Export(fdo{s}, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		t.Fatal(err)
	}
	flags := dbus.NameFlagDoNotQueue
	if opt.Replaceable {
		flags |= dbus.NameFlagAllowReplacement
	}
	if opt.TakeOver {
		flags |= dbus.NameFlagReplaceExisting
	}
	reply, err := conn.RequestName("org.freedesktop.Notifications", flags)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("owning org.freedesktop.Notifications: %v (reply %d)", err, reply)
	}
	return s
}

// Calls returns the Notify calls so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// WaitCalls waits until at least n Notify calls arrived (failing after
// timeout) and returns them all.
func (s *Server) WaitCalls(t testing.TB, n int, timeout time.Duration) []Call {
	t.Helper()
	deadline := time.After(timeout)
	for {
		if c := s.Calls(); len(c) >= n {
			return c
		}
		select {
		case <-s.changed:
		case <-deadline:
			t.Fatalf("%d notification calls after %v, want %d: %+v", len(s.Calls()), timeout, n, s.Calls())
		}
	}
}

// fdo is the exported D-Bus object: only these methods are on the bus.
type fdo struct{ s *Server }

func (f fdo) wait() {
	if f.s.hang != nil {
		<-f.s.hang
	}
}

func (f fdo) Notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, expire int32) (uint32, *dbus.Error) {
	f.wait()
	s := f.s
	s.mu.Lock()
	id := replaces
	if id == 0 || id > s.nextID {
		s.nextID++
		id = s.nextID
	}
	s.calls = append(s.calls, Call{At: time.Now(), AppName: app, ReplacesID: replaces, Icon: icon, Summary: summary, Body: body, Hints: hints, ID: id})
	s.mu.Unlock()
	select {
	case s.changed <- struct{}{}:
	default:
	}
	return id, nil
}

func (f fdo) GetCapabilities() ([]string, *dbus.Error) {
	f.wait()
	return f.s.caps, nil
}

func (f fdo) GetServerInformation() (string, string, string, string, *dbus.Error) {
	f.wait()
	return "notifytest", "descriptorpin", "1", "1.2", nil
}

func (f fdo) CloseNotification(uint32) *dbus.Error {
	f.wait()
	return nil
}

// String describes a call for failure messages.
func (c Call) String() string {
	return fmt.Sprintf("Notify(replaces %d, %q, %q) = %d", c.ReplacesID, c.Summary, c.Body, c.ID)
}
