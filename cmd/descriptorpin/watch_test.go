package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The service end to end: the real binary, real files, real fsnotify
// events, the real event log.

const invClean = `{"servers": [{"name": "files", "transport": "http", "tools": [
  {"name": "read_file", "description": "Read a file and return its text."},
  {"name": "list_dir", "description": "List a directory."}]}]}
`

var invChanged = strings.Replace(invClean, "Read a file and return its text.", "Read a file and return its text, then more.", 1)

// svc is one running descriptorpin watch.
type svc struct {
	t      *testing.T
	dir    string
	cfg    string
	events string
	state  string
	pin    string
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	seen   int      // events consumed by next
	env    []string // the service's environment, when set
}

type event map[string]any

func (e event) get(path string) any {
	var cur any = map[string]any(e)
	for _, k := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

func (e event) str(path string) string {
	s, _ := e.get(path).(string)
	return s
}

func (e event) action() string { return e.str("event.action") }
func (e event) class() string  { return e.str("descriptorpin.finding.class") }

func (e event) String() string {
	s := e.action()
	if c := e.class(); c != "" {
		s += " " + c + " " + e.str("descriptorpin.finding.subject")
	}
	return s
}

// newSvc writes a config watching targets (paths relative to the test
// dir) and a pin of pinFrom (if not empty).
func newSvc(t *testing.T, targets []string, extra string) *svc {
	t.Helper()
	dir := t.TempDir()
	s := &svc{t: t, dir: dir, cfg: filepath.Join(dir, "config.yaml"), events: filepath.Join(dir, "state", "events.jsonl"),
		state: filepath.Join(dir, "state", "state.json"), pin: filepath.Join(dir, "pin.json")}
	var b strings.Builder
	fmt.Fprintf(&b, "pin: %s\nstate_dir: %s\ndiscover: false\ndebounce: 50ms\nrescan_interval: 0\nlog:\n  file: %s\n  stderr: false\ntargets:\n",
		s.pin, filepath.Join(dir, "state"), s.events)
	for _, tg := range targets {
		fmt.Fprintf(&b, "  - path: %s\n    kind: inventory\n", filepath.Join(dir, tg))
	}
	b.WriteString(extra)
	if err := os.WriteFile(s.cfg, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *svc) path(rel string) string { return filepath.Join(s.dir, rel) }

func (s *svc) write(rel, content string) {
	s.t.Helper()
	p := s.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// atomicWrite saves the way most editors do: temp file, rename.
func (s *svc) atomicWrite(rel, content string) {
	s.t.Helper()
	tmp := s.path(rel) + ".tmp~"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
	if err := os.Rename(tmp, s.path(rel)); err != nil {
		s.t.Fatal(err)
	}
}

func (s *svc) pinFrom(rel string) {
	s.t.Helper()
	out, err := exec.Command(filepath.Join(binDir, "descriptorpin"), "pin", s.path(rel), "-o", s.pin, "--force", "--approved-by", "test", "--note", "baseline").CombinedOutput()
	if err != nil {
		s.t.Fatalf("pin: %v\n%s", err, out)
	}
}

func (s *svc) start() {
	s.t.Helper()
	startedAt := time.Now()
	var prevState time.Time
	if st, err := os.Stat(s.state); err == nil {
		prevState = st.ModTime()
	}
	s.quietDesktop()
	s.stderr = &bytes.Buffer{}
	s.cmd = exec.Command(filepath.Join(binDir, "descriptorpin"), "watch", "--config", s.cfg)
	s.cmd.Stderr = s.stderr
	if s.env != nil {
		s.cmd.Env = s.env
	}
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() {
		if s.cmd != nil && s.cmd.ProcessState == nil {
			_ = s.cmd.Process.Kill()
			_ = s.cmd.Wait()
		}
	})
	// Ready: the watcher's start rescan has been applied and the state
	// written.
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if st, err := os.Stat(s.state); err == nil && st.ModTime().After(prevState) && !st.ModTime().Before(startedAt.Add(-time.Second)) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("service not ready; stderr:\n%s", s.stderr)
}

func (s *svc) all() []event {
	s.t.Helper()
	data, err := os.ReadFile(s.events)
	if err != nil {
		return nil
	}
	var out []event
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			s.t.Fatalf("event log line is not JSON: %v\n%s", err, sc.Bytes())
		}
		out = append(out, e)
	}
	return out
}

// waitFor returns the first event after the ones already consumed that
// matches, failing after a generous liveness bound.
func (s *svc) waitFor(what string, match func(event) bool) event {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		evs := s.all()
		for i := s.seen; i < len(evs); i++ {
			if match(evs[i]) {
				s.seen = i + 1
				return evs[i]
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("no %s event; events after #%d: %v\nstderr:\n%s", what, s.seen, s.all()[min(s.seen, len(s.all())):], s.stderr)
	return nil
}

func (s *svc) waitAction(action, class string) event {
	s.t.Helper()
	return s.waitFor(action+" "+class, func(e event) bool { return e.action() == action && (class == "" || e.class() == class) })
}

// quiet asserts that nothing matching happens in the events after the
// consumed ones, once a marker event has been provoked.
func (s *svc) none(after []event, match func(event) bool) {
	s.t.Helper()
	for _, e := range after {
		if match(e) {
			s.t.Fatalf("unexpected event %v", e)
		}
	}
}

func (s *svc) stop() {
	s.t.Helper()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			s.t.Fatalf("watch exited with %v; stderr:\n%s", err, s.stderr)
		}
	case <-time.After(10 * time.Second):
		s.t.Fatal("watch did not stop after SIGTERM")
	}
}

func TestWatchEditorSaves(t *testing.T) {
	saves := []struct {
		name string
		save func(s *svc, content string)
	}{
		{"atomic rename", func(s *svc, c string) { s.atomicWrite("conf/inv.json", c) }},
		{"truncate and write", func(s *svc, c string) {
			f, err := os.OpenFile(s.path("conf/inv.json"), os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(c)
			f.Close()
		}},
		{"vim backup rename", func(s *svc, c string) {
			os.Rename(s.path("conf/inv.json"), s.path("conf/inv.json~"))
			s.write("conf/inv.json", c)
			os.Remove(s.path("conf/inv.json~"))
		}},
		{"jetbrains safe write", func(s *svc, c string) {
			s.write("conf/inv.json___jb_tmp___", c)
			os.Rename(s.path("conf/inv.json"), s.path("conf/inv.json___jb_old___"))
			os.Rename(s.path("conf/inv.json___jb_tmp___"), s.path("conf/inv.json"))
			os.Remove(s.path("conf/inv.json___jb_old___"))
		}},
		{"delete then recreate", func(s *svc, c string) {
			os.Remove(s.path("conf/inv.json"))
			time.Sleep(100 * time.Millisecond)
			s.write("conf/inv.json", c)
		}},
		{"parent removed and recreated", func(s *svc, c string) {
			os.RemoveAll(filepath.Dir(s.path("conf/inv.json")))
			time.Sleep(100 * time.Millisecond)
			s.write("conf/inv.json", c)
		}},
	}
	for _, tc := range saves {
		t.Run(tc.name, func(t *testing.T) {
			s := newSvc(t, []string{"conf/inv.json"}, "")
			s.write("conf/inv.json", invClean)
			s.pinFrom("conf/inv.json")
			s.start()
			tc.save(s, invChanged)
			opened := s.waitAction("finding-opened", "MUTATION")
			if opened.str("descriptorpin.finding.subject") != "files/read_file" || opened.str("event.kind") != "alert" {
				t.Fatalf("opened %v", opened)
			}
			tc.save(s, invClean)
			s.waitAction("finding-resolved", "MUTATION")
			s.stop()
			s.none(s.all(), func(e event) bool { return e.class() == "REMOVED" })
		})
	}
}

func TestWatchPartialWriteIsAFailureNotRemoved(t *testing.T) {
	s := newSvc(t, []string{"inv.json"}, "")
	s.write("inv.json", invChanged)
	s.pinFrom("inv.json")
	s.start()
	s.write("inv.json", invClean[:40])
	failed := s.waitAction("scan-failed", "")
	if !strings.Contains(failed.str("error.message"), "invalid JSON") {
		t.Fatalf("failed %v", failed)
	}
	s.write("inv.json", invClean)
	s.waitAction("finding-opened", "MUTATION")
	s.stop()
	s.none(s.all(), func(e event) bool { return e.class() == "REMOVED" })
}

func TestWatchSymlinkedTarget(t *testing.T) {
	s := newSvc(t, []string{"link.json"}, "")
	s.write("real/a.json", invClean)
	s.write("real/b.json", invChanged)
	if err := os.Symlink(s.path("real/a.json"), s.path("link.json")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	s.pinFrom("real/a.json")
	s.start()
	// A write to the link's target file is seen.
	s.atomicWrite("real/a.json", invChanged)
	s.waitAction("finding-opened", "MUTATION")
	s.atomicWrite("real/a.json", invClean)
	s.waitAction("finding-resolved", "MUTATION")
	// Re-pointing the link is seen.
	os.Remove(s.path("link.json"))
	os.Symlink(s.path("real/b.json"), s.path("link.json"))
	s.waitAction("finding-opened", "MUTATION")
	s.stop()
}

func TestWatchMissingDirectoryAppears(t *testing.T) {
	s := newSvc(t, []string{"later/deeper/inv.json"}, "")
	s.write("seed.json", invClean)
	s.pinFrom("seed.json")
	s.start()
	s.write("later/deeper/inv.json", invChanged)
	s.waitAction("finding-opened", "MUTATION")
	s.stop()
}

func TestWatchRapidWritesAreDebounced(t *testing.T) {
	s := newSvc(t, []string{"inv.json"}, "")
	s.write("inv.json", invClean)
	s.pinFrom("inv.json")
	s.start()
	for i := 0; i < 1000; i++ {
		if i%2 == 0 {
			s.write("inv.json", invChanged)
		} else {
			s.write("inv.json", invClean)
		}
	}
	s.write("inv.json", invChanged) // the final content
	s.waitAction("finding-opened", "MUTATION")
	// Let any trailing scan land, then check the final state.
	time.Sleep(500 * time.Millisecond)
	s.stop()
	flips := 0
	for _, e := range s.all() {
		if e.class() == "MUTATION" {
			flips++
		}
	}
	// Each scan that saw the other content would open or resolve the
	// finding; 1,001 writes must collapse into a handful of scans.
	if flips > 15 {
		t.Fatalf("%d open/resolve events for 1,001 writes: debounce is not working", flips)
	}
	st := readStateFile(t, s.state)
	if !strings.Contains(st, `"class": "MUTATION"`) {
		t.Fatal("the final content (changed) is not what was scanned last")
	}
}

func readStateFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWatchRestart(t *testing.T) {
	s := newSvc(t, []string{"inv.json", "other.json"}, "")
	s.write("inv.json", invChanged)
	s.write("other.json", strings.ReplaceAll(invClean, `"files"`, `"other"`))
	s.write("both.json", `{"servers": [`+strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(invClean), `{"servers": [`), `]}`)+`, `+strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(strings.ReplaceAll(invClean, `"files"`, `"other"`)), `{"servers": [`), `]}`)+`]}`)
	s.pinFrom("both.json")
	s.start()
	s.waitAction("finding-opened", "MUTATION")
	s.stop()
	// While it is down: other.json changes too.
	s.write("other.json", strings.ReplaceAll(invChanged, `"files"`, `"other"`))
	s.start()
	opened := s.waitFor("finding-opened for other.json", func(e event) bool {
		return e.action() == "finding-opened" && strings.HasSuffix(e.str("file.path"), "other.json")
	})
	if opened.class() != "MUTATION" {
		t.Fatalf("got %v", opened)
	}
	s.stop()
	n := 0
	for _, e := range s.all() {
		if e.action() == "finding-opened" && strings.HasSuffix(e.str("file.path"), "inv.json") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("finding for inv.json opened %d times across a restart, want 1", n)
	}
}

func TestWatchSIGKILLLeavesLoadableState(t *testing.T) {
	s := newSvc(t, []string{"inv.json"}, "")
	s.write("inv.json", invClean)
	s.pinFrom("inv.json")
	for round := 0; round < 3; round++ {
		s.start()
		// Keep it busy writing state, then kill it mid-flight.
		for i := 0; i < 40; i++ {
			if i%2 == 0 {
				s.atomicWrite("inv.json", invChanged)
			} else {
				s.atomicWrite("inv.json", invClean)
			}
			time.Sleep(15 * time.Millisecond)
		}
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
		var v map[string]any
		if err := json.Unmarshal([]byte(readStateFile(t, s.state)), &v); err != nil {
			t.Fatalf("state after SIGKILL is not loadable: %v", err)
		}
	}
	s.none(s.all(), func(e event) bool { return strings.Contains(e.str("message"), "state unreadable") })
}

func TestWatchPinChangeReevaluates(t *testing.T) {
	s := newSvc(t, []string{"inv.json"}, "")
	s.write("inv.json", invClean)
	s.pinFrom("inv.json")
	s.start()
	s.atomicWrite("inv.json", invChanged)
	s.waitAction("finding-opened", "MUTATION")
	out, err := exec.Command(filepath.Join(binDir, "descriptorpin"), "approve", s.path("inv.json"), "-p", s.pin, "files/read_file", "--approved-by", "reviewer", "--note", "ok").CombinedOutput()
	if err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}
	ch := s.waitAction("pin-changed", "")
	if !strings.Contains(ch.str("message"), "reviewer") {
		t.Fatalf("pin-changed does not say by whom: %v", ch)
	}
	s.waitAction("finding-resolved", "MUTATION")
	// An invalid pin is an error event; the last good pin is kept.
	if err := os.WriteFile(s.pin, []byte("{broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.waitAction("scan-failed", "")
	s.atomicWrite("inv.json", invClean)
	s.waitAction("finding-opened", "MUTATION") // judged against the last good pin
	s.stop()
}

func TestWatchTrustOnFirstUse(t *testing.T) {
	s := newSvc(t, []string{"inv.json"}, "")
	s.write("inv.json", strings.Replace(invClean, `"http"`, `"stdio"`, 1))
	s.start()
	created := s.waitAction("pin-created", "")
	if created.str("log.level") != "warn" {
		t.Fatalf("pin-created %v", created)
	}
	s.waitAction("finding-opened", "TRANSPORT") // static findings are still reported
	if _, err := os.Stat(s.pin); err != nil {
		t.Fatal("no pin written")
	}
	if !strings.Contains(readStateFile(t, s.pin), `"approved_by": "trust-on-first-use"`) {
		t.Fatal("pin not marked as trusted on first use")
	}
	s.atomicWrite("inv.json", strings.Replace(invChanged, `"http"`, `"stdio"`, 1))
	s.waitAction("finding-opened", "MUTATION")
	s.stop()
	s.none(s.all(), func(e event) bool { return e.class() == "ADDED" })
}

func TestWatchWithoutTrustOnFirstUseReportsAdded(t *testing.T) {
	s := newSvc(t, []string{"inv.json"}, "trust_on_first_use: false\n")
	s.write("inv.json", invClean)
	s.start()
	s.waitAction("finding-opened", "ADDED")
	s.stop()
	if _, err := os.Stat(s.pin); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a pin was written without trust on first use")
	}
}

func TestWatchSIGTERMStopsCleanly(t *testing.T) {
	s := newSvc(t, []string{"inv.json"}, "")
	s.write("inv.json", invClean)
	s.pinFrom("inv.json")
	s.start()
	s.stop() // fails unless exit status 0
	s.waitAction("daemon-stopped", "")
}

func TestSecondSignalForcesExit(t *testing.T) {
	done := make(chan error) // the service never finishes
	sigs := make(chan os.Signal, 2)
	cancelled := 0
	sigs <- syscall.SIGTERM
	sigs <- syscall.SIGTERM
	if err := supervise(done, sigs, func() { cancelled++ }); !errors.Is(err, errForced) || cancelled == 0 {
		t.Fatalf("got %v, cancelled %d", err, cancelled)
	}
	done2 := make(chan error, 1)
	sigs2 := make(chan os.Signal, 1)
	sigs2 <- syscall.SIGTERM
	done2 <- nil
	if err := supervise(done2, sigs2, func() {}); err != nil {
		t.Fatalf("one signal and a clean stop: got %v", err)
	}
}
