package watcher

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitTimeout bounds every wait for a signal. It is generous on purpose: it
// only turns a missing signal into a failure instead of a hang, and is never
// a claim about how fast signals arrive.
const waitTimeout = 5 * time.Second

// testOptions are fast defaults for tests; interval rescans stay off so that
// an All signal can never stand in for a missing path signal.
func testOptions() Options {
	return Options{Debounce: 20 * time.Millisecond}
}

// start creates a Watcher, closes it at the end of the test, and consumes the
// start signal.
func start(t *testing.T, targets []string, opt Options) *Watcher {
	t.Helper()
	if opt.Logf == nil {
		opt.Logf = func(format string, args ...any) { t.Logf(format, args...) }
	}
	w, err := New(targets, opt)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	if s := next(t, w); !s.All || s.Reason != ReasonStart {
		t.Fatalf("first signal = %+v, want Signal{All: true, Reason: %q}", s, ReasonStart)
	}
	return w
}

// next returns the next signal or fails the test after waitTimeout.
func next(t *testing.T, w *Watcher) Signal {
	t.Helper()
	select {
	case s, ok := <-w.Signals():
		if !ok {
			t.Fatal("Signals channel closed")
		}
		return s
	case <-time.After(waitTimeout):
		t.Fatalf("no signal within %v", waitTimeout)
	}
	panic("unreachable")
}

// waitFor skips signals until match accepts one, and returns it and the
// signals skipped before it.
func waitFor(t *testing.T, w *Watcher, what string, match func(Signal) bool) (Signal, []Signal) {
	t.Helper()
	var skipped []Signal
	deadline := time.After(waitTimeout)
	for {
		select {
		case s, ok := <-w.Signals():
			if !ok {
				t.Fatalf("Signals channel closed while waiting for %s", what)
			}
			if match(s) {
				return s, skipped
			}
			skipped = append(skipped, s)
		case <-deadline:
			t.Fatalf("no signal for %s within %v; got %+v", what, waitTimeout, skipped)
		}
	}
}

// waitPath waits for a signal naming path.
func waitPath(t *testing.T, w *Watcher, path string) Signal {
	t.Helper()
	s, _ := waitFor(t, w, path, func(s Signal) bool { return s.Path == path })
	return s
}

// waitCovered waits for a signal naming path, or an All signal sent because
// watches were re-added or events were lost (which also covers path).
func waitCovered(t *testing.T, w *Watcher, path string) Signal {
	t.Helper()
	s, _ := waitFor(t, w, path+" or a rewatch", func(s Signal) bool {
		return s.Path == path || s.All && (s.Reason == ReasonRewatch || s.Reason == ReasonOverflow)
	})
	return s
}

// noSignalBefore pokes sentinel (another target) and fails if a signal for
// unwanted arrives before the sentinel's. Signals leave in the order their
// paths settle, so anything scheduled for unwanted before the poke would
// arrive first: no sleeping and guessing.
func noSignalBefore(t *testing.T, w *Watcher, unwanted, sentinel string) {
	t.Helper()
	write(t, sentinel, "poke")
	_, skipped := waitFor(t, w, sentinel, func(s Signal) bool { return s.Path == sentinel })
	for _, s := range skipped {
		if s.Path == unwanted || s.All {
			t.Errorf("unexpected signal %+v (want none for %s)", s, unwanted)
		}
	}
}

// drainQuiet consumes signals until none has arrived for quiet.
func drainQuiet(w *Watcher, quiet time.Duration) {
	for {
		select {
		case <-w.Signals():
		case <-time.After(quiet):
			return
		}
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func symlinkOrSkip(t *testing.T, oldname, newname string) {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("symlinks need privileges on this Windows host: %v", err)
		}
		t.Fatal(err)
	}
}

// realDir is how the watcher names dir (macOS temp dirs live behind /var → /private/var).
func realDir(t *testing.T, dir string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(dir)
	must(t, err)
	return r
}

func TestEditorSavesSignalTarget(t *testing.T) {
	tests := []struct {
		name string
		save func(t *testing.T, target string)
	}{
		{"atomic rename over target", func(t *testing.T, target string) {
			tmp := filepath.Join(filepath.Dir(target), ".config.json.tmp123")
			write(t, tmp, `{"v":2}`)
			must(t, os.Rename(tmp, target))
		}},
		{"in-place truncate and write", func(t *testing.T, target string) {
			f, err := os.OpenFile(target, os.O_WRONLY|os.O_TRUNC, 0)
			must(t, err)
			_, err = f.WriteString(`{"v":2}`)
			must(t, err)
			must(t, f.Close())
		}},
		{"vim backup rename then write", func(t *testing.T, target string) {
			must(t, os.Rename(target, target+"~"))
			write(t, target, `{"v":2}`)
			must(t, os.Remove(target+"~"))
		}},
		{"jetbrains safe write", func(t *testing.T, target string) {
			write(t, target+"___jb_tmp___", `{"v":2}`)
			must(t, os.Rename(target, target+"___jb_old___"))
			must(t, os.Rename(target+"___jb_tmp___", target))
			must(t, os.Remove(target+"___jb_old___"))
		}},
		{"delete then recreate", func(t *testing.T, target string) {
			must(t, os.Remove(target))
			write(t, target, `{"v":2}`)
		}},
		{"chmod", func(t *testing.T, target string) {
			if runtime.GOOS == "windows" {
				t.Skip("Windows reports no attribute changes")
			}
			must(t, os.Chmod(target, 0o644))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "config.json")
			write(t, target, `{"v":1}`)
			w := start(t, []string{target}, testOptions())
			tt.save(t, target)
			if s := waitPath(t, w, target); s.All || s.Reason != ReasonChange {
				t.Errorf("signal = %+v, want a change signal for the target", s)
			}
		})
	}
}

func TestOtherFilesInSameDirGiveNoSignal(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "config.json")
	sentinel := filepath.Join(dir, "sentinel.json")
	write(t, target, "{}")
	write(t, sentinel, "{}")
	w := start(t, []string{target, sentinel}, testOptions())

	other := filepath.Join(dir, "other.json")
	write(t, other, "1")
	write(t, other, "2")
	must(t, os.Chmod(other, 0o644))
	must(t, os.Rename(other, other+".moved"))
	must(t, os.Remove(other+".moved"))
	write(t, target+".bak", "look-alike")
	write(t, target+"~", "look-alike")
	write(t, filepath.Join(dir, "config"), "prefix")
	must(t, os.Mkdir(filepath.Join(dir, "config.json.d"), 0o700))
	write(t, filepath.Join(dir, "config.json.d", "config.json"), "same base name, other dir")

	noSignalBefore(t, w, target, sentinel)
}

func TestSymlinkedTarget(t *testing.T) {
	root := t.TempDir()
	linkDir, dirB, dirC := filepath.Join(root, "home"), filepath.Join(root, "dotfiles-b"), filepath.Join(root, "dotfiles-c")
	for _, d := range []string{linkDir, dirB, dirC} {
		must(t, os.Mkdir(d, 0o700))
	}
	real1, real2 := filepath.Join(dirB, "real1.json"), filepath.Join(dirC, "real2.json")
	write(t, real1, "1")
	write(t, real2, "2")
	link := filepath.Join(linkDir, "config.json")
	symlinkOrSkip(t, real1, link)
	w := start(t, []string{link}, testOptions())

	// A write to the real file is seen through the extra watch.
	write(t, real1, "1b")
	waitPath(t, w, link)

	// Re-pointing the link (atomically, as `ln -sfn` tools do) is seen.
	tmp := filepath.Join(linkDir, ".config.json.new")
	symlinkOrSkip(t, real2, tmp)
	must(t, os.Rename(tmp, link))
	waitPath(t, w, link)
	drainQuiet(w, 200*time.Millisecond)

	// Writes to the new real file are seen; the extra watch moved.
	write(t, real2, "2b")
	waitPath(t, w, link)

	// And a save to the new real file by atomic rename.
	tmp2 := filepath.Join(dirC, ".real2.tmp")
	write(t, tmp2, "2c")
	must(t, os.Rename(tmp2, real2))
	waitPath(t, w, link)
}

func TestSymlinkChain(t *testing.T) {
	root := t.TempDir()
	dirs := []string{"a", "b", "c", "d"}
	for _, d := range dirs {
		must(t, os.Mkdir(filepath.Join(root, d), 0o700))
	}
	target := filepath.Join(root, "a", "config.json")
	hop := filepath.Join(root, "b", "hop.json")
	real1, real2 := filepath.Join(root, "c", "real.json"), filepath.Join(root, "d", "real.json")
	write(t, real1, "1")
	write(t, real2, "2")
	symlinkOrSkip(t, hop, target)
	// A relative link, resolved against the link's own directory.
	symlinkOrSkip(t, filepath.Join("..", "c", "real.json"), hop)
	w := start(t, []string{target}, testOptions())

	write(t, real1, "1b")
	waitPath(t, w, target)

	// Re-point the middle link of the chain.
	must(t, os.Remove(hop))
	symlinkOrSkip(t, real2, hop)
	waitPath(t, w, target)
	drainQuiet(w, 200*time.Millisecond)

	write(t, real2, "2b")
	waitPath(t, w, target)
}

func TestTargetThroughSymlinkedDirectory(t *testing.T) {
	root := t.TempDir()
	realConf := filepath.Join(root, "dotfiles", "app")
	must(t, os.MkdirAll(realConf, 0o700))
	linkConf := filepath.Join(root, "config-app")
	symlinkOrSkip(t, realConf, linkConf)
	target := filepath.Join(linkConf, "config.json")
	write(t, target, "1")
	w := start(t, []string{target}, testOptions())

	write(t, filepath.Join(realConf, "config.json"), "2")
	waitPath(t, w, target)
}

func TestMissingParentIsAwaited(t *testing.T) {
	tests := []struct {
		name   string
		create func(t *testing.T, root, target string)
	}{
		{"mkdir -p then write", func(t *testing.T, root, target string) {
			must(t, os.MkdirAll(filepath.Dir(target), 0o700))
			write(t, target, "{}")
		}},
		{"one level at a time", func(t *testing.T, root, target string) {
			must(t, os.Mkdir(filepath.Join(root, "a"), 0o700))
			time.Sleep(30 * time.Millisecond) // vary the interleaving: let the watch descend first
			must(t, os.Mkdir(filepath.Join(root, "a", "b"), 0o700))
			time.Sleep(30 * time.Millisecond)
			write(t, target, "{}")
		}},
		{"directory tree renamed into place", func(t *testing.T, root, target string) {
			staging := filepath.Join(root, "staging")
			must(t, os.MkdirAll(filepath.Join(staging, "b"), 0o700))
			write(t, filepath.Join(staging, "b", filepath.Base(target)), "{}")
			must(t, os.Rename(staging, filepath.Join(root, "a")))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			target := filepath.Join(root, "a", "b", "config.json")
			w := start(t, []string{target}, testOptions())
			tt.create(t, root, target)
			waitPath(t, w, target)

			// From now on the real parent is watched: later writes are seen.
			drainQuiet(w, 200*time.Millisecond)
			write(t, target, `{"v":2}`)
			waitPath(t, w, target)
		})
	}
}

func TestParentRemovedAndRecreated(t *testing.T) {
	tests := []struct {
		name   string
		remove func(t *testing.T, dir string)
	}{
		{"removed", func(t *testing.T, dir string) { must(t, os.RemoveAll(dir)) }},
		{"renamed away", func(t *testing.T, dir string) { must(t, os.Rename(dir, dir+".old")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name+", step by step", func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "client")
			target := filepath.Join(dir, "config.json")
			must(t, os.Mkdir(dir, 0o700))
			write(t, target, "1")
			w := start(t, []string{target}, testOptions())

			tt.remove(t, dir)
			waitCovered(t, w, target)
			must(t, os.Mkdir(dir, 0o700))
			// The recreated directory is watched again, and that is announced.
			waitFor(t, w, "rewatch", func(s Signal) bool { return s.All && s.Reason == ReasonRewatch })
			drainQuiet(w, 200*time.Millisecond)

			// The signal arrives after the new file is written.
			write(t, target, "2")
			waitPath(t, w, target)
		})
		t.Run(tt.name+", recreated at once", func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "client")
			target := filepath.Join(dir, "config.json")
			must(t, os.Mkdir(dir, 0o700))
			write(t, target, "1")
			w := start(t, []string{target}, testOptions())

			tt.remove(t, dir)
			must(t, os.Mkdir(dir, 0o700))
			write(t, target, "2")
			waitCovered(t, w, target)

			drainQuiet(w, 200*time.Millisecond)
			write(t, target, "3")
			waitPath(t, w, target)
		})
	}
}

func TestRapidWritesAreDebounced(t *testing.T) {
	target := filepath.Join(t.TempDir(), "config.json")
	write(t, target, "start")
	opt := testOptions()
	opt.Debounce = 50 * time.Millisecond
	w := start(t, []string{target}, opt)

	// The receiver reads the file on every signal, as the engine would.
	var (
		mu    sync.Mutex
		reads []string
	)
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		for s := range w.Signals() {
			if s.Path != target && !s.All {
				continue
			}
			b, _ := os.ReadFile(target)
			mu.Lock()
			reads = append(reads, string(b))
			mu.Unlock()
		}
	}()

	const n = 1000
	for i := range n {
		write(t, target, strconv.Itoa(i))
	}
	last := strconv.Itoa(n - 1)
	lastRead := func() string {
		mu.Lock()
		defer mu.Unlock()
		if len(reads) == 0 {
			return ""
		}
		return reads[len(reads)-1]
	}
	deadline := time.Now().Add(waitTimeout)
	for lastRead() != last && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	// Let any late signal arrive before counting.
	time.Sleep(2 * opt.Debounce * maxWaitFactor)
	must(t, w.Close())
	<-collected

	if got := lastRead(); got != last {
		t.Fatalf("last read after a signal = %q, want %q: no signal arrived after the last write", got, last)
	}
	if len(reads) > 20 {
		t.Errorf("%d writes gave %d signals, want at most 20", n, len(reads))
	}
	t.Logf("%d writes gave %d signals", n, len(reads))
}

func TestMaxWaitBoundsAContinuousStream(t *testing.T) {
	target := filepath.Join(t.TempDir(), "config.json")
	write(t, target, "0")
	w := start(t, []string{target}, Options{Debounce: 100 * time.Millisecond, MaxWait: 200 * time.Millisecond})

	// The writer keeps the path busy (writes far closer together than the
	// debounce window) until told to stop or until waitTimeout.
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		giveUp := time.After(waitTimeout)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-giveUp:
				return
			case <-time.After(5 * time.Millisecond):
				_ = os.WriteFile(target, []byte(strconv.Itoa(i)), 0o600)
			}
		}
	}()
	waitPath(t, w, target)
	select {
	case <-stopped:
		t.Error("the signal only came after the stream of writes ended")
	default:
	}
	close(stop)
	<-stopped
}

func TestCloseIsIdempotentAndLeaksNothing(t *testing.T) {
	before := runtime.NumGoroutine()
	dir := t.TempDir()
	target := filepath.Join(dir, "config.json")
	w, err := New([]string{target, filepath.Join(dir, "missing", "x.json")}, Options{Debounce: time.Millisecond, RescanInterval: time.Millisecond})
	must(t, err)
	// Nobody reads Signals while events pour in: Close must not block on a send.
	for i := range 50 {
		write(t, target, strconv.Itoa(i))
	}

	closed := make(chan error, 3)
	for range 3 {
		go func() { closed <- w.Close() }()
	}
	for range 3 {
		select {
		case err := <-closed:
			if err != nil {
				t.Errorf("Close: %v", err)
			}
		case <-time.After(waitTimeout):
			t.Fatal("Close did not return")
		}
	}
	if err := w.Close(); err != nil {
		t.Errorf("Close again: %v", err)
	}
	for range w.Signals() { // must end: the channel is closed
	}
	if _, ok := <-w.Health(); ok {
		t.Error("Health channel not closed")
	}
	if err := w.SetTargets([]string{target}); !errors.Is(err, ErrClosed) {
		t.Errorf("SetTargets after Close = %v, want ErrClosed", err)
	}

	deadline := time.Now().Add(waitTimeout)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("goroutines: %d before New, %d after Close", before, after)
	}
}

func TestSetTargets(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	otherDir := filepath.Join(t.TempDir(), "later")
	c := filepath.Join(otherDir, "c.json")
	write(t, a, "a")
	write(t, b, "b")
	w := start(t, []string{a}, testOptions())

	// Adding targets, one in a directory not watched so far.
	must(t, w.SetTargets([]string{a, b, c}))
	for _, p := range []string{b, c} {
		if s := waitPath(t, w, p); s.Reason != ReasonAdded {
			t.Errorf("first signal for %s = %+v, want reason %q", p, s, ReasonAdded)
		}
	}
	write(t, b, "b2")
	waitPath(t, w, b)
	must(t, os.Mkdir(otherDir, 0o700))
	write(t, c, "c")
	waitPath(t, w, c)

	// Removing a target stops its signals.
	must(t, w.SetTargets([]string{b}))
	write(t, a, "a2")
	noSignalBefore(t, w, a, b)

	// Relative paths are made absolute.
	wd, err := os.Getwd()
	must(t, err)
	rel, err := filepath.Rel(wd, a)
	must(t, err)
	must(t, w.SetTargets([]string{rel, b}))
	if s := waitPath(t, w, a); s.Reason != ReasonAdded {
		t.Errorf("signal for re-added target = %+v", s)
	}
}

func TestIntervalRescan(t *testing.T) {
	target := filepath.Join(t.TempDir(), "config.json")
	opt := testOptions()
	opt.RescanInterval = 50 * time.Millisecond
	w := start(t, []string{target}, opt)
	for range 2 {
		s := next(t, w)
		if !s.All || s.Reason != ReasonInterval {
			t.Fatalf("signal = %+v, want Signal{All: true, Reason: %q}", s, ReasonInterval)
		}
	}
}

func TestIntervalRescanHealsRepointedDirectoryLink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("directory symlinks need privileges and replace differently on Windows")
	}
	root := t.TempDir()
	real1, real2 := filepath.Join(root, "real1"), filepath.Join(root, "real2")
	for _, d := range []string{real1, real2} {
		must(t, os.Mkdir(d, 0o700))
		write(t, filepath.Join(d, "config.json"), "{}")
	}
	conf := filepath.Join(root, "conf")
	symlinkOrSkip(t, real1, conf)
	target := filepath.Join(conf, "config.json")
	opt := testOptions()
	opt.RescanInterval = 200 * time.Millisecond
	w := start(t, []string{target}, opt)

	// Re-point the directory link: no event names the target.
	symlinkOrSkip(t, real2, conf+".new")
	must(t, os.Rename(conf+".new", conf))
	// Two interval signals after the re-point: the second one's rescan ran
	// after it.
	for range 2 {
		waitFor(t, w, "interval", func(s Signal) bool { return s.All && s.Reason == ReasonInterval })
	}
	// Writes to the new real directory are seen. Write again now and then,
	// since a path signal may be legitimately subsumed by a queued interval
	// signal, or carry the reason of a rewatch burst it joined.
	rewrite := time.NewTicker(waitTimeout / 10)
	defer rewrite.Stop()
	deadline := time.After(waitTimeout)
	for i := 0; ; i++ {
		write(t, filepath.Join(real2, "config.json"), strconv.Itoa(i))
		select {
		case s := <-w.Signals():
			if s.Path == target && s.Reason == ReasonChange {
				return
			}
		case <-rewrite.C:
		case <-deadline:
			t.Fatal("writes under the re-pointed directory link were never signalled")
		}
	}
}

func TestFailedWatchIsReportedAndRetried(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "config.json")
	write(t, target, "1")
	var failures atomic.Int32
	failures.Store(2)
	injected := errors.New("no space left on device")
	wrap := func(add func(string) error) func(string) error {
		return func(d string) error {
			if failures.Load() > 0 {
				failures.Add(-1)
				return injected
			}
			return add(d)
		}
	}
	opt := testOptions()
	opt.RetryInterval = 20 * time.Millisecond
	opt.Logf = t.Logf
	w, err := newWatcher([]string{target}, opt, wrap)
	must(t, err)
	t.Cleanup(func() { _ = w.Close() })

	wantDir := realDir(t, dir)
	h := nextHealth(t, w)
	if !h.Degraded || h.Path != wantDir || !slices.Equal(h.Targets, []string{target}) || !strings.Contains(h.Reason, injected.Error()) {
		t.Fatalf("health = %+v, want degraded %s for %s", h, wantDir, target)
	}
	h = nextHealth(t, w)
	if h.Degraded || h.Path != wantDir {
		t.Fatalf("health = %+v, want recovered %s", h, wantDir)
	}
	if s := next(t, w); !s.All {
		t.Fatalf("signal = %+v, want start or rewatch All", s)
	}
	// Failed twice: one degraded and one recovered report, not one per retry.
	select {
	case h := <-w.Health():
		t.Errorf("extra health report %+v", h)
	default:
	}
	drainQuiet(w, 100*time.Millisecond)
	write(t, target, "2")
	waitPath(t, w, target)
}

func nextHealth(t *testing.T, w *Watcher) Health {
	t.Helper()
	select {
	case h := <-w.Health():
		return h
	case <-time.After(waitTimeout):
		t.Fatalf("no health report within %v", waitTimeout)
	}
	panic("unreachable")
}

// TestOverflowRescansEverything makes the kernel queue overflow for real: the
// loop is held inside an Add (through the test hook) while far more events
// than the queue holds are generated.
func TestOverflowRescansEverything(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs inotify's bounded queue")
	}
	b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events")
	must(t, err)
	limit, err := strconv.Atoi(strings.TrimSpace(string(b)))
	must(t, err)
	if limit > 100_000 {
		t.Skipf("max_queued_events is %d: too many files to create", limit)
	}

	dir := t.TempDir()
	target := filepath.Join(dir, "config.json")
	write(t, target, "1")
	blockDir := filepath.Join(t.TempDir(), "block")
	must(t, os.Mkdir(blockDir, 0o700))
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	wrap := func(add func(string) error) func(string) error {
		return func(d string) error {
			if filepath.Base(d) == "block" {
				once.Do(func() { close(entered); <-release })
			}
			return add(d)
		}
	}
	w, err := newWatcher([]string{target}, Options{Debounce: 20 * time.Millisecond}, wrap)
	must(t, err)
	t.Cleanup(func() { _ = w.Close() })
	if s := next(t, w); s.Reason != ReasonStart {
		t.Fatalf("first signal = %+v", s)
	}

	setDone := make(chan error, 1)
	go func() { setDone <- w.SetTargets([]string{target, filepath.Join(blockDir, "x.json")}) }()
	<-entered
	// inotify's reader holds up to 4096 events and the kernel queue limit more.
	for i := range limit + 4096 + 1000 {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("noise-%d", i)))
		must(t, err)
		must(t, f.Close())
	}
	close(release)
	must(t, <-setDone)

	waitFor(t, w, "overflow", func(s Signal) bool { return s.All && s.Reason == ReasonOverflow })
	drainQuiet(w, 200*time.Millisecond)
	write(t, target, "2")
	waitPath(t, w, target)
}

func TestIdleWatcherSleeps(t *testing.T) {
	target := filepath.Join(t.TempDir(), "config.json")
	w := start(t, []string{target, filepath.Join(t.TempDir(), "missing", "dir", "x.json")}, testOptions())
	time.Sleep(100 * time.Millisecond) // let the loop go back to sleep after sending "start"
	before := w.wakeups.Load()
	time.Sleep(300 * time.Millisecond)
	if after := w.wakeups.Load(); after != before {
		t.Errorf("idle loop woke up %d times", after-before)
	}
}

func TestCoalescing(t *testing.T) {
	p := func(path string) Signal { return Signal{Path: path, Reason: ReasonChange} }
	all := func(reason string) Signal { return Signal{All: true, Reason: reason} }
	tests := []struct {
		name string
		in   []Signal
		want []Signal
	}{
		{"distinct paths queue in order", []Signal{p("/a"), p("/b")}, []Signal{p("/a"), p("/b")}},
		{"a queued path is not queued again", []Signal{p("/a"), p("/b"), p("/a")}, []Signal{p("/a"), p("/b")}},
		{"all subsumes queued paths", []Signal{p("/a"), all(ReasonOverflow), p("/b")}, []Signal{all(ReasonOverflow)}},
		{"the first all wins", []Signal{all(ReasonStart), all(ReasonRewatch)}, []Signal{all(ReasonStart)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &Watcher{queued: map[string]bool{}}
			for _, s := range tt.in {
				w.emit(s)
			}
			if !slices.Equal(w.outbox, tt.want) {
				t.Errorf("outbox = %+v, want %+v", w.outbox, tt.want)
			}
		})
	}
}

func TestNewRejectsBadInput(t *testing.T) {
	tests := []struct {
		name    string
		targets []string
		opt     Options
		want    string
	}{
		{"empty target", []string{""}, Options{}, "empty path"},
		{"root target", []string{string(filepath.Separator)}, Options{}, "root directory"},
		{"negative debounce", nil, Options{Debounce: -1}, "Debounce is negative"},
		{"negative interval", nil, Options{RescanInterval: -time.Second}, "RescanInterval is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := New(tt.targets, tt.opt)
			if err == nil {
				_ = w.Close()
				t.Fatal("New succeeded")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestOptionDefaults(t *testing.T) {
	o, err := Options{}.withDefaults()
	must(t, err)
	if o.Debounce != DefaultDebounce || o.MaxWait != maxWaitFactor*DefaultDebounce || o.RetryInterval != DefaultRetryInterval || o.RescanInterval != 0 {
		t.Errorf("defaults = %+v", o)
	}
	o, err = Options{Debounce: time.Second, MaxWait: time.Millisecond}.withDefaults()
	must(t, err)
	if o.MaxWait != time.Second {
		t.Errorf("MaxWait below Debounce became %v, want %v", o.MaxWait, time.Second)
	}
}
