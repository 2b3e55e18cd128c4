// Package watcher turns filesystem noise into two kinds of signal: "path P
// may have changed" and "rescan everything".
//
// A [Watcher] is handed a set of target files (MCP client configs, inventory
// files, the pin). It uses one fsnotify watcher for all of them and watches
// directories, never the files themselves, because editors save by writing a
// temporary file and renaming it over the target:
//
//   - Each target is watched through its parent directory; every operation on
//     its name (create, write, remove, rename, chmod) means "maybe changed".
//   - A symlinked target is followed hop by hop: the directory of every link
//     in the chain and of the final file is watched too, so a write to the
//     real file is seen, and a re-pointed link moves the extra watches.
//   - When a parent directory is missing, the nearest existing ancestor is
//     watched and the watch descends as the missing directories appear. When
//     a watched directory is removed or renamed, the same fallback applies.
//   - Per-path events are debounced: a signal fires once a path has been quiet
//     for Options.Debounce, and at the latest Options.MaxWait after the first
//     event of a burst, so a continuous stream of writes cannot starve it.
//   - A Signal{All: true} is sent at start, after a kernel queue overflow,
//     after a lost or failed watch is re-added, and every
//     Options.RescanInterval as a safety net. The interval rescan also checks
//     that every watched directory is still the one that was added and
//     re-resolves every target, healing watches whose events were lost.
//
// Signals are coalesced while they wait to be received: a path that is
// already queued is not queued twice, and a queued All subsumes everything.
// A receiver that falls behind therefore sees fewer, never stale, signals.
//
// Only the loop goroutine touches the watcher's state; [Watcher.SetTargets]
// and [Watcher.Close] talk to it over channels.
//
// Limits worth knowing:
//   - Watched directories are named by their real path (EvalSymlinks), so
//     each physical directory has one watch. A symlinked directory component
//     of a target's path that is re-pointed (as opposed to a symlinked
//     target file or a link in its chain) is only noticed by the interval
//     rescan.
//   - Names are matched exactly as the target was given. On case-insensitive
//     file systems (macOS, Windows) give targets in their on-disk case.
//   - kqueue (macOS, BSD) holds an open descriptor per entry of each watched
//     directory and never reports overflow; the interval rescan covers lost
//     events there.
package watcher

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Reasons carried by [Signal.Reason].
const (
	ReasonStart    = "start"    // All: the watcher started
	ReasonChange   = "change"   // Path: an event named the target, a link in its chain, or its real file
	ReasonAdded    = "added"    // Path: SetTargets added the target
	ReasonRewatch  = "rewatch"  // All: a lost or failed watch was re-added; Path: the target's watches moved
	ReasonOverflow = "overflow" // All: the kernel queue or buffer overflowed; events were lost
	ReasonInterval = "interval" // All: the periodic safety-net rescan
)

// Defaults applied by [New] to zero [Options] fields.
const (
	DefaultDebounce      = 150 * time.Millisecond
	DefaultRetryInterval = 30 * time.Second
	maxWaitFactor        = 10 // default MaxWait is maxWaitFactor × Debounce
	healthBacklog        = 64 // unreceived Health values kept before the oldest is dropped
	maxSymlinkHops       = 40
	maxLost              = 256 // remembered lost directories (see unwatch)
	maxSyncRounds        = 8   // plan-and-watch rounds before the retry timer takes over
)

// ErrClosed is returned by [Watcher.SetTargets] after [Watcher.Close].
var ErrClosed = errors.New("watcher closed")

// Options tunes a [Watcher]. The zero value is usable.
type Options struct {
	// Debounce is the quiet time a path needs before its signal fires.
	// Zero means DefaultDebounce.
	Debounce time.Duration
	// MaxWait bounds how long a burst of events can delay a signal, counted
	// from the burst's first event. Zero means 10 × Debounce; a value below
	// Debounce is raised to Debounce.
	MaxWait time.Duration
	// RescanInterval is the period of Signal{All: true, Reason: "interval"}.
	// Zero disables it.
	RescanInterval time.Duration
	// RetryInterval is how often a directory whose watch could not be added
	// (for example at the inotify watch limit) is retried. The timer only
	// runs while something is degraded. Zero means DefaultRetryInterval.
	RetryInterval time.Duration
	// Logf, if set, receives diagnostics. It is called from the loop
	// goroutine and must not block for long.
	Logf func(format string, args ...any)
}

// Signal asks the receiver to rescan one target or all of them.
type Signal struct {
	Path   string // the target, cleaned and absolute; empty when All is set
	All    bool   // rescan every target
	Reason string // one of the Reason constants
}

// Health reports that a directory could not be watched (Degraded) or can be
// again. While a directory is degraded the targets that depend on it are
// only covered by the periodic rescan.
type Health struct {
	Degraded bool
	Path     string   // the directory whose watch failed or recovered
	Targets  []string // the targets that depend on Path, sorted
	Reason   string
}

// Watcher watches a set of target files. Create it with [New].
type Watcher struct {
	opt      Options
	fsw      *fsnotify.Watcher
	add      func(dir string) error // fsw.Add, wrapped by tests to inject failures
	signals  chan Signal
	health   chan Health
	setc     chan setRequest
	done     chan struct{}
	loopDone chan struct{}
	once     sync.Once
	closeErr error
	wakeups  atomic.Int64 // loop iterations, so a test can check that an idle watcher sleeps

	// Loop state. Set up by New before the loop starts; after that only the
	// loop goroutine touches it.
	plans      map[string]plan            // target → what to watch for it
	index      map[string]map[string]kind // watched name → target → kind
	watched    map[string]os.FileInfo     // watched directory → its identity when added
	failed     map[string]error           // directories whose Add failed
	lost       map[string]bool            // directories whose watch went away and is wanted back
	pending    map[string]*burst          // debounce state per target
	outbox     []Signal                   // signals not yet received
	queued     map[string]bool            // paths in outbox
	allQueued  bool                       // outbox holds an All signal
	hbox       []Health                   // health values not yet received
	nextRescan time.Time                  // zero when RescanInterval is 0
	nextRetry  time.Time                  // zero unless a retry is due
	timer      *time.Timer                // one timer for the earliest deadline
	armed      time.Time                  // deadline the timer is set for; zero when stopped
}

type setRequest struct {
	targets []string
	done    chan struct{}
}

type burst struct {
	first, last time.Time
	reason      string
}

// New starts watching targets (file paths; relative ones are made absolute).
// The watches are in place when New returns and the first signal is
// Signal{All: true, Reason: "start"}. A directory that cannot be watched is
// not an error: it is reported on [Watcher.Health] and retried.
func New(targets []string, opt Options) (*Watcher, error) {
	return newWatcher(targets, opt, nil)
}

// newWatcher is New with a hook that wraps the fsnotify Add call, so tests can
// inject Add failures while every event stays real.
func newWatcher(targets []string, opt Options, wrapAdd func(func(string) error) func(string) error) (*Watcher, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	ts, err := normalize(targets)
	if err != nil {
		return nil, err
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("creating fsnotify watcher: %w", err)
	}
	w := &Watcher{
		opt:      opt,
		fsw:      fsw,
		add:      fsw.Add,
		signals:  make(chan Signal),
		health:   make(chan Health),
		setc:     make(chan setRequest),
		done:     make(chan struct{}),
		loopDone: make(chan struct{}),
		plans:    map[string]plan{},
		index:    map[string]map[string]kind{},
		watched:  map[string]os.FileInfo{},
		failed:   map[string]error{},
		lost:     map[string]bool{},
		pending:  map[string]*burst{},
		queued:   map[string]bool{},
		timer:    time.NewTimer(time.Hour),
	}
	w.timer.Stop()
	if wrapAdd != nil {
		w.add = wrapAdd(w.add)
	}
	for _, t := range ts {
		w.plans[t] = computePlan(t)
	}
	w.sync(false)
	w.emit(Signal{All: true, Reason: ReasonStart})
	if opt.RescanInterval > 0 {
		w.nextRescan = time.Now().Add(opt.RescanInterval)
	}
	go w.loop()
	return w, nil
}

func (o Options) withDefaults() (Options, error) {
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"Debounce", o.Debounce}, {"MaxWait", o.MaxWait}, {"RescanInterval", o.RescanInterval}, {"RetryInterval", o.RetryInterval}} {
		if f.d < 0 {
			return o, fmt.Errorf("checking watcher options: %s is negative (%v)", f.name, f.d)
		}
	}
	if o.Debounce == 0 {
		o.Debounce = DefaultDebounce
	}
	if o.MaxWait == 0 {
		o.MaxWait = maxWaitFactor * o.Debounce
	}
	o.MaxWait = max(o.MaxWait, o.Debounce)
	if o.RetryInterval == 0 {
		o.RetryInterval = DefaultRetryInterval
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	return o, nil
}

// normalize makes targets absolute and clean, sorted and without duplicates.
func normalize(targets []string) ([]string, error) {
	out := make([]string, 0, len(targets))
	for _, t := range targets {
		if t == "" {
			return nil, errors.New("checking targets: empty path")
		}
		abs, err := filepath.Abs(t)
		if err != nil {
			return nil, fmt.Errorf("resolving target %q: %w", t, err)
		}
		if filepath.Dir(abs) == abs {
			return nil, fmt.Errorf("checking target %q: a root directory is not a file", t)
		}
		out = append(out, abs)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Signals returns the channel of rescan requests. It is closed by Close.
//
// The channel itself is unbuffered: the buffer is the loop's outbox, where a
// signal can still be coalesced until it is received (a path already waiting
// is not queued twice; a waiting All subsumes every other signal). A slow
// receiver never blocks the watcher and never gets a backlog of duplicates.
func (w *Watcher) Signals() <-chan Signal { return w.signals }

// Health returns the channel of watch-degraded and watch-recovered reports.
// It is closed by Close. Reading it is optional: unread values are kept up to
// a small backlog, then the oldest are dropped.
func (w *Watcher) Health() <-chan Health { return w.health }

// SetTargets replaces the set of targets. It returns once the loop has
// applied the change, so the new targets' watches are in place. Each new
// target gets a Signal with Reason "added". It is safe from any goroutine.
func (w *Watcher) SetTargets(targets []string) error {
	ts, err := normalize(targets)
	if err != nil {
		return err
	}
	req := setRequest{targets: ts, done: make(chan struct{})}
	select {
	case w.setc <- req:
	case <-w.done:
		return ErrClosed
	}
	select {
	case <-req.done:
		return nil
	case <-w.done:
		return ErrClosed
	}
}

// Close stops the loop, closes the fsnotify watcher, waits for the loop
// goroutine and closes the Signals and Health channels. Unreceived signals
// are dropped. It is idempotent and safe from any goroutine.
func (w *Watcher) Close() error {
	w.once.Do(func() {
		close(w.done)
		<-w.loopDone
		if err := w.fsw.Close(); err != nil {
			w.closeErr = fmt.Errorf("closing fsnotify watcher: %w", err)
		}
		close(w.signals)
		close(w.health)
	})
	return w.closeErr
}

func (w *Watcher) loop() {
	defer close(w.loopDone)
	events, errs := w.fsw.Events, w.fsw.Errors
	for {
		w.wakeups.Add(1)
		w.arm()
		var (
			out   chan<- Signal
			sig   Signal
			hout  chan<- Health
			hnext Health
		)
		if len(w.outbox) > 0 {
			out, sig = w.signals, w.outbox[0]
		}
		if len(w.hbox) > 0 {
			hout, hnext = w.health, w.hbox[0]
		}
		select {
		case <-w.done:
			return
		case ev, ok := <-events:
			if !ok {
				events = nil
				w.opt.Logf("watcher: fsnotify event channel closed")
				continue
			}
			w.handleEvent(ev)
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			w.handleError(err)
		case req := <-w.setc:
			w.setTargets(req.targets)
			close(req.done)
		case <-w.timer.C:
			w.armed = time.Time{}
			w.tick(time.Now())
		case out <- sig:
			w.outbox = slices.Delete(w.outbox, 0, 1)
			if sig.All {
				w.allQueued = false
			} else {
				delete(w.queued, sig.Path)
			}
		case hout <- hnext:
			w.hbox = slices.Delete(w.hbox, 0, 1)
		}
	}
}

// arm sets the one timer to the earliest pending deadline, or stops it.
func (w *Watcher) arm() {
	next := w.nextRescan
	earliest := func(t time.Time) {
		if !t.IsZero() && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	earliest(w.nextRetry)
	for _, b := range w.pending {
		earliest(w.deadline(b))
	}
	if next.Equal(w.armed) {
		return
	}
	w.armed = next
	if next.IsZero() {
		w.timer.Stop()
		return
	}
	w.timer.Reset(time.Until(next))
}

func (w *Watcher) deadline(b *burst) time.Time {
	return minTime(b.last.Add(w.opt.Debounce), b.first.Add(w.opt.MaxWait))
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func (w *Watcher) tick(now time.Time) {
	var due []string
	for t, b := range w.pending {
		if !now.Before(w.deadline(b)) {
			due = append(due, t)
		}
	}
	// Oldest deadline first, so signals leave in the order their paths settled.
	slices.SortFunc(due, func(a, b string) int {
		if c := w.deadline(w.pending[a]).Compare(w.deadline(w.pending[b])); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for _, t := range due {
		w.emit(Signal{Path: t, Reason: w.pending[t].reason})
		delete(w.pending, t)
	}
	if !w.nextRescan.IsZero() && !now.Before(w.nextRescan) {
		w.nextRescan = now.Add(w.opt.RescanInterval)
		w.emit(Signal{All: true, Reason: ReasonInterval})
		w.resync(true)
	}
	if !w.nextRetry.IsZero() && !now.Before(w.nextRetry) {
		w.nextRetry = time.Time{}
		w.resync(false)
	}
}

// schedule records an event for target t: its signal fires after the
// debounce window, or at the latest MaxWait after the first event.
func (w *Watcher) schedule(t, reason string) {
	if _, ok := w.plans[t]; !ok {
		return
	}
	now := time.Now()
	if b, ok := w.pending[t]; ok {
		b.last = now
		return
	}
	w.pending[t] = &burst{first: now, last: now, reason: reason}
}

// emit queues s unless an equal or wider signal is already queued.
func (w *Watcher) emit(s Signal) {
	switch {
	case w.allQueued:
	case s.All:
		w.outbox = append(w.outbox[:0], s)
		clear(w.queued)
		w.allQueued = true
	case !w.queued[s.Path]:
		w.queued[s.Path] = true
		w.outbox = append(w.outbox, s)
	}
}

func (w *Watcher) report(h Health) {
	if h.Degraded {
		w.opt.Logf("watcher: watch degraded: %s: %s", h.Path, h.Reason)
	} else {
		w.opt.Logf("watcher: watch recovered: %s: %s", h.Path, h.Reason)
	}
	if len(w.hbox) >= healthBacklog {
		w.opt.Logf("watcher: health backlog full, dropping report for %s", w.hbox[0].Path)
		w.hbox = slices.Delete(w.hbox, 0, 1)
	}
	w.hbox = append(w.hbox, h)
}

func (w *Watcher) handleEvent(ev fsnotify.Event) {
	name := filepath.Clean(ev.Name)
	structural := ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)
	var affected []string
	if _, ok := w.watched[name]; ok && (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) {
		w.opt.Logf("watcher: watched directory went away: %s (%v)", name, ev.Op)
		affected = w.dependents(name)
		w.unwatch(name, true)
	}
	for t, k := range w.index[name] {
		if k == kindFile {
			w.schedule(t, ReasonChange)
		}
		if structural || k == kindStep {
			affected = append(affected, t)
		}
	}
	if len(affected) > 0 {
		w.replan(affected)
		w.sync(false)
	}
}

func (w *Watcher) handleError(err error) {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		w.opt.Logf("watcher: %v: rescanning everything", err)
		w.emit(Signal{All: true, Reason: ReasonOverflow})
		w.resync(true)
		return
	}
	w.opt.Logf("watcher: fsnotify error: %v", err)
}

func (w *Watcher) setTargets(ts []string) {
	keep := map[string]bool{}
	for _, t := range ts {
		keep[t] = true
		if _, ok := w.plans[t]; !ok {
			w.plans[t] = computePlan(t)
			w.schedule(t, ReasonAdded)
		}
	}
	for t := range w.plans {
		if !keep[t] {
			delete(w.plans, t)
			delete(w.pending, t)
		}
	}
	w.sync(false)
}

// resync re-resolves every target and re-attempts failed watches. With
// checkIdentity it first drops watches on directories that were removed or
// replaced without an event reaching us (for example after an overflow).
func (w *Watcher) resync(checkIdentity bool) {
	if checkIdentity {
		for d, fi := range w.watched {
			if cur, err := os.Stat(d); err != nil || !os.SameFile(fi, cur) {
				w.opt.Logf("watcher: watched directory was replaced or removed: %s", d)
				w.unwatch(d, true)
			}
		}
	}
	w.replan(sortedKeys(w.plans))
	w.sync(true)
}

// replan recomputes the plans of targets and reports whether any changed. A
// target whose watches moved while its parent directory exists (or existed)
// is signalled: it may have appeared, changed or gone while not watched.
func (w *Watcher) replan(targets []string) (changed bool) {
	for _, t := range targets {
		old, ok := w.plans[t]
		if !ok {
			continue
		}
		p := computePlan(t)
		w.plans[t] = p
		if !p.equal(old) {
			changed = true
			if p.ready || old.ready {
				w.schedule(t, ReasonRewatch)
			}
		}
	}
	return changed
}

// sync makes the set of fsnotify watches match the union of the plans. With
// retry it also re-attempts directories whose Add failed earlier.
//
// Plans are computed before their watches exist, so whatever happened in
// between (a directory created under a step, a directory that vanished) is
// only seen by planning again once the watches are in place; sync repeats
// until the plans hold still, then leaves any rest to the retry timer.
func (w *Watcher) sync(retry bool) {
	for round := 0; ; round++ {
		touched := w.syncOnce(retry)
		if len(touched) == 0 {
			break
		}
		var again []string
		for _, d := range touched {
			again = append(again, w.dependents(d)...)
		}
		if !w.replan(again) {
			break
		}
		if round == maxSyncRounds {
			w.nextRetry = time.Now().Add(w.opt.RetryInterval)
			break
		}
	}
	if len(w.failed) > 0 && w.nextRetry.IsZero() {
		w.nextRetry = time.Now().Add(w.opt.RetryInterval)
	}
	w.index = map[string]map[string]kind{}
	for t, p := range w.plans {
		for name, k := range p.names {
			if w.index[name] == nil {
				w.index[name] = map[string]kind{}
			}
			w.index[name][t] = k
		}
	}
}

// syncOnce does one pass of sync and returns the directories it added or
// found missing when it tried to add them.
func (w *Watcher) syncOnce(retry bool) (touched []string) {
	want := map[string]bool{}
	for _, p := range w.plans {
		for d := range p.dirs {
			want[d] = true
		}
	}
	for d := range w.watched {
		if !want[d] {
			w.unwatch(d, !isDir(d))
		}
	}
	for d := range w.failed {
		if !want[d] {
			delete(w.failed, d)
			w.report(Health{Path: d, Reason: "no longer needed"})
		}
	}
	for _, d := range sortedKeys(want) {
		if _, ok := w.watched[d]; ok {
			continue
		}
		_, wasFailed := w.failed[d]
		if wasFailed && !retry {
			continue
		}
		// Stat before Add: if the directory is swapped in between, the
		// recorded identity is the old one and the next identity check
		// re-adds the watch, rather than the other way round.
		fi, err := os.Stat(d)
		if err == nil {
			err = w.add(d)
		}
		if errors.Is(err, fs.ErrNotExist) {
			touched = append(touched, d)
			continue
		}
		if err != nil {
			if !wasFailed {
				w.failed[d] = err
				w.report(Health{Degraded: true, Path: d, Targets: w.dependents(d),
					Reason: fmt.Errorf("adding watch: %w", err).Error()})
			}
			continue
		}
		w.watched[d] = fi
		touched = append(touched, d)
		w.opt.Logf("watcher: watching %s", d)
		if wasFailed {
			delete(w.failed, d)
			w.report(Health{Path: d, Targets: w.dependents(d), Reason: "watch added"})
		}
		if wasFailed || w.lost[d] {
			delete(w.lost, d)
			w.emit(Signal{All: true, Reason: ReasonRewatch})
		}
	}
	return touched
}

// unwatch removes the watch on d. If d went away (rather than being no longer
// wanted) it is remembered as lost, so that watching it again announces a
// rewatch: events in it may have been missed in between.
func (w *Watcher) unwatch(d string, gone bool) {
	delete(w.watched, d)
	if gone {
		if len(w.lost) >= maxLost {
			clear(w.lost) // only costs a rewatch signal; keeps the set bounded
		}
		w.lost[d] = true
	}
	// The kernel may already have dropped the watch with the directory.
	if err := w.fsw.Remove(d); err != nil && !errors.Is(err, fsnotify.ErrNonExistentWatch) {
		w.opt.Logf("watcher: removing watch on %s: %v", d, err)
	}
}

// dependents returns the sorted targets whose plan watches directory d.
func (w *Watcher) dependents(d string) []string {
	var ts []string
	for t, p := range w.plans {
		if p.dirs[d] {
			ts = append(ts, t)
		}
	}
	slices.Sort(ts)
	return ts
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
