//go:build linux

// Command service measures the running service (descriptorpin watch) with
// the real binary, on Linux:
//
//  1. Latency: a watched inventory (bench/gen, 1,000 tools) is replaced by
//     rename, alternately with a mutated and the clean content, -changes
//     times; for each change it records the time from the rename to the
//     first finding-opened or finding-resolved line in the event log, and
//     to that line's own @timestamp.
//  2. Idle: a daemon watching -idle-targets small inventories sits for
//     -idle-window; it reads CPU time, RSS, peak RSS and context switches
//     (summed over every thread) from /proc at the start and the end. An
//     idle Go process that does nothing but wait on inotify and signals
//     (this program, re-executed with -baseline) is measured over the same
//     window, as the floor of what the Go runtime alone does; so is a
//     second daemon with GODEBUG=gctrace=1, whose stderr counts the
//     garbage collections in the window.
//
// It prints markdown tables on stdout and progress on stderr:
//
//	go build -o /tmp/dp ./cmd/descriptorpin
//	go run ./bench/gen -servers 20 -tools 50 -o /tmp/inv.json
//	go run ./bench/gen -servers 20 -tools 50 -mutate 1 -o /tmp/mut.json
//	go run ./bench/service -bin /tmp/dp -inv /tmp/inv.json -mutated /tmp/mut.json -work /tmp/w
//
// bench/service.sh does all of that. Figures are reported, never asserted:
// the program fails only when the service does not start, does not answer
// a change within -timeout, or /proc cannot be read.
//
// The event log is tailed with inotify (IN_MODIFY on the log file, through
// the syscall package and the runtime poller), so a line is seen within
// microseconds of its write; -tail poll reads the file every -poll instead
// (1ms by default), which adds up to one poll interval to every sample.
//
// Unless -sequential is given, the idle window runs while the latency run
// goes on (another daemon, other directories), so that the whole run takes
// as long as the longer of the two.
//
// Linux only: it reads /proc and uses inotify and Pdeathsig.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/descriptorpin/descriptorpin/internal/procsleep"
)

type options struct {
	bin, inv, mutated, work string
	changes                 int
	debounce                time.Duration
	gap                     time.Duration
	tail                    string
	poll                    time.Duration
	timeout                 time.Duration
	idleTargets, idleDirs   int
	idleWindow, settle      time.Duration
	godebug                 string
	skipLatency, skipIdle   bool
	sequential              bool
	summary                 string
	noopWait                time.Duration
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-baseline" {
		baseline(os.Args[2:])
		return
	}
	var o options
	flag.StringVar(&o.bin, "bin", "", "the descriptorpin binary (required)")
	flag.StringVar(&o.inv, "inv", "", "the clean inventory for the latency run (required unless -skip-latency)")
	flag.StringVar(&o.mutated, "mutated", "", "the mutated inventory (required unless -skip-latency)")
	flag.StringVar(&o.work, "work", "", "an empty scratch directory (required)")
	flag.IntVar(&o.changes, "changes", 200, "renames in the latency run")
	flag.DurationVar(&o.debounce, "debounce", 150*time.Millisecond, "the service's debounce")
	flag.DurationVar(&o.gap, "gap", 10*time.Millisecond, "pause after one change is fully handled before the next")
	flag.StringVar(&o.tail, "tail", "inotify", "how to follow the event log: inotify | poll")
	flag.DurationVar(&o.poll, "poll", time.Millisecond, "poll interval with -tail poll (also for state.json)")
	flag.DurationVar(&o.timeout, "timeout", 60*time.Second, "liveness bound: start-up, or one change's event")
	flag.IntVar(&o.idleTargets, "idle-targets", 50, "watched files in the idle run")
	flag.IntVar(&o.idleDirs, "idle-dirs", 10, "directories they are spread over")
	flag.DurationVar(&o.idleWindow, "idle-window", time.Minute, "idle measurement window")
	flag.DurationVar(&o.settle, "settle", 2*time.Second, "wait after ready before the idle window starts")
	flag.StringVar(&o.godebug, "godebug", "", "GODEBUG for the measured idle daemon (default: none)")
	flag.BoolVar(&o.skipLatency, "skip-latency", false, "skip the latency run")
	flag.BoolVar(&o.skipIdle, "skip-idle", false, "skip the idle run")
	flag.BoolVar(&o.sequential, "sequential", false, "run the latency run before the idle window, not inside it (longer)")
	flag.DurationVar(&o.noopWait, "noop-wait", 3*time.Second, "how long to wait for state.json after renaming identical bytes over the target")
	flag.StringVar(&o.summary, "summary", "", "also append the headline figures to this file, one \"key value\" a line (for bench/run.sh)")
	flag.Parse()
	if o.bin == "" || o.work == "" || (!o.skipLatency && (o.inv == "" || o.mutated == "")) || o.changes < 1 ||
		(o.tail != "inotify" && o.tail != "poll") || o.idleTargets < 1 || o.idleDirs < 1 {
		flag.Usage()
		os.Exit(2)
	}
	for _, p := range []*string{&o.bin, &o.work} {
		abs, err := filepath.Abs(*p)
		if err != nil {
			fmt.Fprintf(os.Stderr, "service: error: %v\n", err)
			os.Exit(2)
		}
		*p = abs
	}
	// SIGINT/SIGTERM: stop the services we started, then exit.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		logf("%v: stopping the services", s)
		stopAll()
		os.Exit(130)
	}()
	err := run(o)
	stopAll()
	if err != nil {
		fmt.Fprintf(os.Stderr, "service: error: %v\n", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "service: "+format+"\n", args...)
}

func run(o options) error {
	var lat *latencyResult
	runLatency := func() error {
		var err error
		if lat, err = latency(o); err != nil {
			return fmt.Errorf("latency run: %w", err)
		}
		return nil
	}
	if o.skipIdle {
		if err := runLatency(); err != nil {
			return err
		}
		lat.print(o)
		return lat.summarize(o)
	}
	var during func() error
	if !o.skipLatency && !o.sequential {
		during = runLatency // inside the idle window: the whole run fits in ~2.5 minutes
	} else if !o.skipLatency {
		if err := runLatency(); err != nil {
			return err
		}
	}
	idl, err := idle(o, during)
	if err != nil {
		return err
	}
	if lat != nil {
		lat.print(o)
		if err := lat.summarize(o); err != nil {
			return err
		}
	}
	idl.print(o)
	return idl.summarize(o)
}

// appendSummary appends "key value" lines to the -summary file, if any.
func appendSummary(o options, kv ...string) error {
	if o.summary == "" {
		return nil
	}
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		fmt.Fprintf(&b, "%s %s\n", kv[i], kv[i+1])
	}
	f, err := os.OpenFile(o.summary, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// summarize writes the latency headline: rename -> event line with the
// debounce subtracted (nearest-rank percentiles), the watcher's own
// delivery (rename -> @timestamp, debounce subtracted), CPU per change.
func (r *latencyResult) summarize(o options) error {
	var obsD, stampD []time.Duration
	for _, s := range r.samples {
		obsD = append(obsD, s.observed-o.debounce)
		stampD = append(stampD, s.stamp-o.debounce)
	}
	slices.Sort(obsD)
	slices.Sort(stampD)
	return appendSummary(o,
		"lat_tools", strconv.Itoa(r.tools),
		"lat_bytes", strconv.Itoa(r.bytes),
		"lat_n", strconv.Itoa(len(obsD)),
		"lat_debounce_ms", ms(o.debounce),
		"lat_min_ms", ms(obsD[0]),
		"lat_p50_ms", ms(pct(obsD, 50)),
		"lat_p90_ms", ms(pct(obsD, 90)),
		"lat_p99_ms", ms(pct(obsD, 99)),
		"lat_max_ms", ms(obsD[len(obsD)-1]),
		"lat_stamp_p50_ms", ms(pct(stampD, 50)),
		"lat_stamp_p99_ms", ms(pct(stampD, 99)),
		"lat_cpu_per_change_ms", ms(time.Duration((r.proc.runNS-r.procStart.runNS)/int64(len(r.samples)))),
		"lat_ready_ms", ms(r.ready),
		"lat_ready_cpu_ms", ms(time.Duration(r.procStart.runNS)),
		"lat_rss_mb", strconv.FormatFloat(float64(r.proc.rssKB)/1024, 'f', 1, 64),
		"lat_hwm_mb", strconv.FormatFloat(float64(r.proc.hwmKB)/1024, 'f', 1, 64),
	)
}

// summarize writes the idle headline of the measured daemon (the first
// row) and of the idle Go process (the last).
func (r *idleResult) summarize(o options) error {
	if len(r.rows) == 0 {
		return nil
	}
	d, b := r.rows[0], r.rows[len(r.rows)-1]
	wake := func(row idleRow) string {
		return strconv.FormatInt(row.end.vol-row.start.vol+row.end.nvol-row.start.nvol, 10)
	}
	gcs := "n/a"
	for _, row := range r.rows {
		if row.gcs >= 0 {
			gcs = strconv.Itoa(row.gcs)
		}
	}
	return appendSummary(o,
		"idle_targets", strconv.Itoa(r.targets),
		"idle_window_s", strconv.FormatFloat(d.end.at.Sub(d.start.at).Seconds(), 'f', 1, 64),
		"idle_rss_mb", strconv.FormatFloat(float64(d.end.rssKB)/1024, 'f', 1, 64),
		"idle_hwm_mb", strconv.FormatFloat(float64(d.end.hwmKB)/1024, 'f', 1, 64),
		"idle_anon_mb", strconv.FormatFloat(float64(d.end.anonKB)/1024, 'f', 1, 64),
		"idle_file_mb", strconv.FormatFloat(float64(d.end.fileKB)/1024, 'f', 1, 64),
		"idle_cpu_ms", strconv.FormatFloat(float64(d.end.runNS-d.start.runNS)/1e6, 'f', 1, 64),
		"idle_wakeups", wake(d),
		"idle_threads", strconv.Itoa(d.end.threads),
		"idle_lines", strconv.Itoa(d.lines),
		"idle_state_rewritten", map[bool]string{true: "yes", false: "no"}[d.stateMod],
		"idle_gcs", gcs,
		"idle_next_wake", strings.ReplaceAll(d.wakes, " ", "_"),
		"base_rss_mb", strconv.FormatFloat(float64(b.end.rssKB)/1024, 'f', 1, 64),
		"base_wakeups", wake(b),
	)
}

// --- processes ---

var (
	procMu sync.Mutex
	procs  []*proc
)

// proc is one started child (a daemon or the baseline).
type proc struct {
	cmd    *exec.Cmd
	done   chan struct{}
	err    error
	stderr string
}

func start(name string, args []string, env []string, stderrFile string) (*proc, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	// If this program dies without cleaning up, the kernel stops the child.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	f, err := os.Create(stderrFile)
	if err != nil {
		return nil, err
	}
	cmd.Stderr = f
	cmd.Stdout = f
	procMu.Lock()
	defer procMu.Unlock()
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, err
	}
	p := &proc{cmd: cmd, done: make(chan struct{}), stderr: stderrFile}
	go func() { p.err = cmd.Wait(); f.Close(); close(p.done) }()
	procs = append(procs, p)
	return p, nil
}

func (p *proc) pid() int { return p.cmd.Process.Pid }

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop sends SIGTERM (the service's clean shutdown), then SIGKILL after 5s.
func (p *proc) stop() {
	if p.exited() {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

func (p *proc) tailStderr() string {
	b, _ := os.ReadFile(p.stderr)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

func stopAll() {
	procMu.Lock()
	ps := slices.Clone(procs)
	procMu.Unlock()
	for _, p := range ps {
		p.stop()
	}
}

// --- a service instance ---

type service struct {
	dir, cfg, pin, stateDir, state, events string
}

func newService(dir string, targets []string, debounce, rescan time.Duration) (*service, error) {
	s := &service{
		dir: dir, cfg: filepath.Join(dir, "config.yaml"), pin: filepath.Join(dir, "pin", "pin.json"),
		stateDir: filepath.Join(dir, "state"), events: filepath.Join(dir, "log", "events.jsonl"),
	}
	s.state = filepath.Join(s.stateDir, "state.json")
	if err := os.MkdirAll(filepath.Dir(s.pin), 0o755); err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "pin: %s\nstate_dir: %s\ndiscover: false\ntrust_on_first_use: true\ndebounce: %s\nrescan_interval: %s\n",
		s.pin, s.stateDir, debounce, durYAML(rescan))
	fmt.Fprintf(&b, "log:\n  file: %s\n  stderr: false\ntargets:\n", s.events)
	for _, t := range targets {
		fmt.Fprintf(&b, "  - path: %s\n    kind: inventory\n", t)
	}
	return s, os.WriteFile(s.cfg, []byte(b.String()), 0o644)
}

func durYAML(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	return d.String()
}

// startWatch starts descriptorpin watch and waits until it is ready: the
// watcher's start rescan has been applied and state.json written.
func (s *service) startWatch(o options, env []string, name string) (*proc, time.Duration, error) {
	t0 := time.Now()
	p, err := start(o.bin, []string{"watch", "--config", s.cfg}, env, filepath.Join(s.dir, name+".stderr"))
	if err != nil {
		return nil, 0, err
	}
	for deadline := t0.Add(o.timeout); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if p.exited() {
			return nil, 0, fmt.Errorf("%s exited at start (%v): %s", name, p.err, p.tailStderr())
		}
		if _, err := os.Stat(s.state); err == nil {
			return p, time.Since(t0), nil
		}
	}
	return nil, 0, fmt.Errorf("%s not ready after %v: %s", name, o.timeout, p.tailStderr())
}

// --- following the event log ---

// tailer reads the lines appended to a file.
type tailer struct {
	f       *os.File
	partial []byte
	ino     *os.File // inotify descriptor (non-blocking, on the runtime poller); nil with -tail poll
	poll    time.Duration
}

// newTailer opens path at its current end.
func newTailer(path, mode string, poll time.Duration) (*tailer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, err
	}
	t := &tailer{f: f, poll: poll}
	if mode == "inotify" {
		fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("inotify_init1: %w", err)
		}
		if _, err := syscall.InotifyAddWatch(fd, path, syscall.IN_MODIFY); err != nil {
			syscall.Close(fd)
			f.Close()
			return nil, fmt.Errorf("inotify_add_watch %s: %w", path, err)
		}
		t.ino = os.NewFile(uintptr(fd), "inotify") // non-blocking: read deadlines work
	}
	return t, nil
}

func (t *tailer) close() {
	t.f.Close()
	if t.ino != nil {
		t.ino.Close()
	}
}

// lines returns the complete lines appended since the last call.
func (t *tailer) lines() ([][]byte, error) {
	buf := make([]byte, 64<<10)
	for {
		n, err := t.f.Read(buf)
		t.partial = append(t.partial, buf[:n]...)
		if err == io.EOF || n == 0 {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	var out [][]byte
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		out = append(out, slices.Clone(t.partial[:i]))
		t.partial = t.partial[i+1:]
	}
	return out, nil
}

// wait blocks until the file may have grown, or until deadline.
func (t *tailer) wait(deadline time.Time) {
	if t.ino == nil {
		time.Sleep(t.poll)
		return
	}
	_ = t.ino.SetReadDeadline(deadline)
	var buf [4096]byte
	_, _ = t.ino.Read(buf[:]) // the events themselves do not matter
}

type event struct {
	line      []byte
	action    string
	class     string
	timestamp time.Time
}

func parseEvent(line []byte) (event, error) {
	var e struct {
		Timestamp string `json:"@timestamp"`
		Event     struct {
			Action string `json:"action"`
		} `json:"event"`
		DP struct {
			Finding struct {
				Class string `json:"class"`
			} `json:"finding"`
		} `json:"descriptorpin"`
	}
	if err := json.Unmarshal(line, &e); err != nil {
		return event{}, fmt.Errorf("event line is not JSON: %v: %.200s", err, line)
	}
	ts, err := time.Parse(time.RFC3339Nano, e.Timestamp)
	if err != nil {
		return event{}, fmt.Errorf("event @timestamp %q: %v", e.Timestamp, err)
	}
	return event{line: line, action: e.Event.Action, class: e.DP.Finding.Class, timestamp: ts}, nil
}

// --- 1. latency ---

type sample struct {
	opening  bool          // the change opened findings (mutated content)
	observed time.Duration // rename → line read
	stamp    time.Duration // rename → the line's @timestamp
	events   int           // finding events the change produced
	first    string        // the first one, "action CLASS"
}

type latencyResult struct {
	tools, bytes int
	ready        time.Duration
	samples      []sample
	noop         noopProbe
	stateWrites  int            // state.json replacements seen during the changes
	other        map[string]int // events other than finding events, by action
	procStart    procSample     // the daemon when ready
	proc         procSample     // the daemon after the changes
}

type noopProbe struct {
	rewritten bool          // state.json replaced after a rename of identical bytes
	after     time.Duration // how long after the rename
	events    int
}

func latency(o options) (*latencyResult, error) {
	clean, err := os.ReadFile(o.inv)
	if err != nil {
		return nil, err
	}
	mutated, err := os.ReadFile(o.mutated)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(clean, mutated) {
		return nil, errors.New("the clean and the mutated inventory are identical")
	}
	res := &latencyResult{tools: countTools(clean), bytes: len(clean), other: map[string]int{}}
	dir := filepath.Join(o.work, "latency")
	target := filepath.Join(dir, "inventories", "inventory.json")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(target, clean, 0o644); err != nil {
		return nil, err
	}
	s, err := newService(dir, []string{target}, o.debounce, 0)
	if err != nil {
		return nil, err
	}
	if out, err := exec.Command(o.bin, "pin", target, "-o", s.pin, "--approved-by", "b", "--note", "b").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pin: %v: %s", err, out)
	}
	logf("latency: %d tools (%d bytes), debounce %v, %d changes, tail %s", res.tools, res.bytes, o.debounce, o.changes, o.tail)
	p, ready, err := s.startWatch(o, nil, "latency-watch")
	if err != nil {
		return nil, err
	}
	defer p.stop()
	res.ready = ready
	t, err := newTailer(s.events, o.tail, o.poll)
	if err != nil {
		return nil, err
	}
	defer t.close()
	stateFI, err := os.Stat(s.state)
	if err != nil {
		return nil, err
	}
	if res.procStart, err = readProc(p.pid()); err != nil {
		return nil, err
	}
	tmp := filepath.Join(filepath.Dir(target), ".inventory.json.tmp")
	for i := 0; i < o.changes; i++ {
		opening := i%2 == 0
		content := clean
		if opening {
			content = mutated
		}
		if err := os.WriteFile(tmp, content, 0o644); err != nil {
			return nil, err
		}
		t0 := time.Now()
		if err := os.Rename(tmp, target); err != nil {
			return nil, err
		}
		sm := sample{opening: opening}
		var seen time.Time
		deadline := t0.Add(o.timeout)
		for seen.IsZero() {
			lines, err := t.lines()
			if err != nil {
				return nil, err
			}
			now := time.Now()
			for _, l := range lines {
				ev, err := parseEvent(l)
				if err != nil {
					return nil, err
				}
				if ev.action != "finding-opened" && ev.action != "finding-resolved" {
					res.other[ev.action]++ // not a finding: not a sample
					continue
				}
				if sm.events == 0 {
					seen = now
					sm.observed = now.Sub(t0)
					sm.stamp = ev.timestamp.Sub(t0)
					sm.first = ev.action + " " + ev.class
				}
				sm.events++
			}
			if !seen.IsZero() {
				break
			}
			if now.After(deadline) {
				return nil, fmt.Errorf("change %d: no finding event within %v: %s", i+1, o.timeout, p.tailStderr())
			}
			if p.exited() {
				return nil, fmt.Errorf("the service exited (%v): %s", p.err, p.tailStderr())
			}
			t.wait(deadline)
		}
		// The scan is over when the daemon has replaced state.json (it
		// saves after emitting); then collect the rest of its lines.
		for {
			fi, err := os.Stat(s.state)
			if err == nil && !os.SameFile(fi, stateFI) {
				stateFI = fi
				res.stateWrites++
				break
			}
			if time.Now().After(deadline) {
				return nil, fmt.Errorf("change %d: state.json not rewritten within %v", i+1, o.timeout)
			}
			time.Sleep(o.poll)
		}
		lines, err := t.lines()
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			ev, err := parseEvent(l)
			if err != nil {
				return nil, err
			}
			if ev.action != "finding-opened" && ev.action != "finding-resolved" {
				res.other[ev.action]++
				continue
			}
			sm.events++
		}
		if want := map[bool]string{true: "finding-opened", false: "finding-resolved"}[opening]; !strings.HasPrefix(sm.first, want) {
			return nil, fmt.Errorf("change %d: first event %q, want %s", i+1, sm.first, want)
		}
		res.samples = append(res.samples, sm)
		if (i+1)%50 == 0 {
			logf("latency: %d/%d changes", i+1, o.changes)
		}
		time.Sleep(o.gap)
	}
	if res.proc, err = readProc(p.pid()); err != nil {
		return nil, err
	}
	// A save that changes nothing: the same bytes renamed over the target.
	last := clean
	if o.changes%2 == 1 {
		last = mutated
	}
	if err := os.WriteFile(tmp, last, 0o644); err != nil {
		return nil, err
	}
	t0 := time.Now()
	if err := os.Rename(tmp, target); err != nil {
		return nil, err
	}
	for deadline := t0.Add(o.noopWait); time.Now().Before(deadline); time.Sleep(o.poll) {
		if fi, err := os.Stat(s.state); err == nil && !os.SameFile(fi, stateFI) {
			res.noop = noopProbe{rewritten: true, after: time.Since(t0)}
			break
		}
	}
	time.Sleep(50 * time.Millisecond)
	lines, err := t.lines()
	if err != nil {
		return nil, err
	}
	res.noop.events = len(lines)
	return res, nil
}

func countTools(inv []byte) int {
	var doc struct {
		Servers []struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"servers"`
	}
	if json.Unmarshal(inv, &doc) != nil {
		return 0
	}
	n := 0
	for _, s := range doc.Servers {
		n += len(s.Tools)
	}
	return n
}

// pct is the nearest-rank percentile of sorted xs.
func pct(xs []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(p/100*float64(len(xs)))) - 1
	return xs[max(0, min(i, len(xs)-1))]
}

func ms(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 1, 64) }

func statRow(name string, xs []time.Duration) string {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return fmt.Sprintf("| %s | %d | %s | %s | %s | %s | %s |", name, len(xs),
		ms(xs[0]), ms(pct(xs, 50)), ms(pct(xs, 90)), ms(pct(xs, 99)), ms(xs[len(xs)-1]))
}

func (r *latencyResult) print(o options) {
	var obs, obsD, stamp, scan, obsOpen, obsRes []time.Duration
	events := map[int]int{}
	for _, s := range r.samples {
		obs = append(obs, s.observed)
		obsD = append(obsD, s.observed-o.debounce)
		stamp = append(stamp, s.stamp)
		scan = append(scan, s.observed-s.stamp)
		if s.opening {
			obsOpen = append(obsOpen, s.observed-o.debounce)
		} else {
			obsRes = append(obsRes, s.observed-o.debounce)
		}
		events[s.events]++
	}
	tail := "inotify on the log file"
	if o.tail == "poll" {
		tail = fmt.Sprintf("polling every %v (adds up to %v)", o.poll, o.poll)
	}
	fmt.Printf("### Change to event: %d tools, %d changes\n\n", r.tools, len(r.samples))
	fmt.Printf("Inventory %d tools (%.2f MB), pinned; `debounce: %v`, `rescan_interval: 0`; each change is a rename over the target, "+
		"alternately the mutated content (opens findings) and the clean content (resolves them). Ready after start: %s ms. "+
		"Event log followed by %s. Milliseconds.\n\n",
		r.tools, float64(r.bytes)/1e6, o.debounce, ms(r.ready), tail)
	fmt.Println("| interval | n | min | p50 | p90 | p99 | max |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	fmt.Println(statRow("rename → event line read", obs))
	fmt.Println(statRow(fmt.Sprintf("rename → event line read, debounce (%v) subtracted", o.debounce), obsD))
	fmt.Println(statRow("… of which changes that open (MUTATION), debounce subtracted", obsOpen))
	fmt.Println(statRow("… of which changes that resolve, debounce subtracted", obsRes))
	fmt.Println(statRow("rename → the event's @timestamp (scan start; ms resolution)", stamp))
	fmt.Println(statRow("@timestamp → event line read (read, parse, scan, write)", scan))
	fmt.Println()
	var ks []int
	for k := range events {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%d events × %d changes", k, events[k]))
	}
	fmt.Printf("CPU time of the daemon (schedstat, all threads): %s ms to get ready (two scans of the target, see below), "+
		"%s ms per change over the %d changes (it does not depend on the load of the machine, the wall-clock latencies do). "+
		"After the changes: RSS %.1f MB, peak %.1f MB (VmHWM). ",
		ms(time.Duration(r.procStart.runNS)), ms(time.Duration((r.proc.runNS-r.procStart.runNS)/int64(len(r.samples)))), len(r.samples),
		float64(r.proc.rssKB)/1024, float64(r.proc.hwmKB)/1024)
	fmt.Printf("Finding events per change: %s. state.json replaced %d times in %d changes.\n", strings.Join(parts, ", "), r.stateWrites, len(r.samples))
	if len(r.other) > 0 {
		var parts []string
		for _, a := range slices.Sorted(maps.Keys(r.other)) {
			parts = append(parts, fmt.Sprintf("%s × %d", a, r.other[a]))
		}
		fmt.Printf("Other events during the changes (not samples): %s.\n", strings.Join(parts, ", "))
	}
	if r.noop.rewritten {
		fmt.Printf("Renaming identical bytes over the target: no event (%d lines), but state.json was rewritten %s ms after the rename.\n\n",
			r.noop.events, ms(r.noop.after))
	} else {
		fmt.Printf("Renaming identical bytes over the target: %d event lines, state.json not rewritten within %v.\n\n",
			r.noop.events, o.noopWait)
	}
}

// --- 2. idle ---

type procSample struct {
	at        time.Time
	ticks     int64 // utime+stime, clock ticks
	runNS     int64 // Σ threads' schedstat run time
	slices    int64 // Σ threads' schedstat timeslices
	vol, nvol int64 // Σ threads' context switches
	threads   int
	rssKB     int64
	hwmKB     int64
	anonKB    int64 // RssAnon: heap, stacks
	fileKB    int64 // RssFile: the mapped binary and libraries
}

const clkTck = 100 // USER_HZ; 100 on every Linux architecture Go supports

func readProc(pid int) (procSample, error) {
	s := procSample{at: time.Now()}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return s, err
	}
	// Fields after the ")" that ends comm: state is field 3, utime 14, stime 15.
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 13 {
		return s, fmt.Errorf("/proc/%d/stat: short", pid)
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	s.ticks = ut + st
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, err
	}
	s.rssKB = statusKB(status, "VmRSS:")
	s.hwmKB = statusKB(status, "VmHWM:")
	s.anonKB = statusKB(status, "RssAnon:")
	s.fileKB = statusKB(status, "RssFile:")
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return s, err
	}
	for _, t := range tasks {
		base := fmt.Sprintf("/proc/%d/task/%s/", pid, t.Name())
		st, err := os.ReadFile(base + "status")
		if err != nil {
			continue // the thread exited in between
		}
		s.threads++
		s.vol += statusKB(st, "voluntary_ctxt_switches:")
		s.nvol += statusKB(st, "nonvoluntary_ctxt_switches:")
		if ss, err := os.ReadFile(base + "schedstat"); err == nil {
			if f := strings.Fields(string(ss)); len(f) >= 3 {
				run, _ := strconv.ParseInt(f[0], 10, 64)
				n, _ := strconv.ParseInt(f[2], 10, 64)
				s.runNS += run
				s.slices += n
			}
		}
	}
	return s, nil
}

// statusKB returns the first number after key in a /proc status file.
func statusKB(status []byte, key string) int64 {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, key) {
			f := strings.Fields(line[len(key):])
			if len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}

type idleRow struct {
	name       string
	start, end procSample
	stateMod   bool   // state.json rewritten during the window
	lines      int    // event lines written during the window
	gcs        int    // gctrace lines in the window (-1: not traced)
	wakes      string // nextWakes at the window's start
}

type idleResult struct {
	targets, dirs int
	ready         time.Duration
	rows          []idleRow
	concurrent    bool // the latency run ran during the window
}

// baseline is an idle Go process: it waits on an inotify descriptor through
// the runtime poller and on signals, and does nothing else. Its wake-ups
// are the Go runtime's own.
func baseline(args []string) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dir := "/"
	if len(args) > 0 {
		dir = args[0]
	}
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_CREATE|syscall.IN_MODIFY|syscall.IN_MOVED_TO); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	f := os.NewFile(uintptr(fd), "inotify")
	go func() {
		var buf [4096]byte
		for {
			if _, err := f.Read(buf[:]); err != nil {
				return
			}
		}
	}()
	<-sigs
}

func idle(o options, during func() error) (*idleResult, error) {
	res := &idleResult{targets: o.idleTargets, dirs: o.idleDirs}
	type inst struct {
		started time.Time // the daemon's start: its rescan is due idleRescan later
		name    string
		s       *service
		p       *proc
		gc      bool
	}
	var insts []*inst
	mk := func(name string, env []string, gc bool) error {
		dir := filepath.Join(o.work, name)
		var targets []string
		for i := 0; i < o.idleTargets; i++ {
			d := filepath.Join(dir, "targets", fmt.Sprintf("dir%02d", i%o.idleDirs))
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			tp := filepath.Join(d, fmt.Sprintf("inventory-%02d.json", i))
			if err := os.WriteFile(tp, smallInventory(i), 0o644); err != nil {
				return err
			}
			targets = append(targets, tp)
		}
		s, err := newService(dir, targets, o.debounce, idleRescan)
		if err != nil {
			return err
		}
		started := time.Now()
		p, ready, err := s.startWatch(o, env, name)
		if err != nil {
			return err
		}
		if res.ready == 0 {
			res.ready = ready
		}
		insts = append(insts, &inst{name: name, s: s, p: p, gc: gc, started: started})
		return nil
	}
	var env []string
	label := "descriptorpin watch"
	if o.godebug != "" {
		env = []string{"GODEBUG=" + o.godebug}
		label += " (GODEBUG=" + o.godebug + ")"
	}
	logf("idle: %d targets in %d directories, rescan_interval 10m, window %v", o.idleTargets, o.idleDirs, o.idleWindow)
	if err := mk("idle", env, false); err != nil {
		return nil, err
	}
	gcdebug := "gctrace=1"
	if o.godebug != "" {
		gcdebug = o.godebug + ",gctrace=1"
	}
	if err := mk("idle-gctrace", []string{"GODEBUG=" + gcdebug}, true); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	bdir := filepath.Join(o.work, "baseline")
	if err := os.MkdirAll(bdir, 0o755); err != nil {
		return nil, err
	}
	bp, err := start(self, []string{"-baseline", bdir}, nil, filepath.Join(bdir, "baseline.stderr"))
	if err != nil {
		return nil, err
	}
	time.Sleep(o.settle)
	type mark struct {
		stateMod time.Time
		logSize  int64
		stderr   int64
	}
	pids := []*proc{insts[0].p, insts[1].p, bp}
	names := []string{label, "descriptorpin watch (GODEBUG=gctrace=1)", "idle Go process (runtime floor: inotify + signals)"}
	starts := make([]procSample, len(pids))
	marks := make([]mark, 2)
	for i, in := range insts {
		fi, _ := os.Stat(in.s.state)
		li, _ := os.Stat(in.s.events)
		ei, _ := os.Stat(filepath.Join(in.s.dir, in.name+".stderr"))
		marks[i] = mark{fi.ModTime(), li.Size(), ei.Size()}
	}
	for i, p := range pids {
		if starts[i], err = readProc(p.pid()); err != nil {
			return nil, err
		}
	}
	// When each process will next wake by itself, read from its sleeping
	// threads at the window's start, each deadline named.
	wakes := make([]string, len(pids))
	for i, p := range pids {
		var rescanAt time.Time
		if i < len(insts) {
			rescanAt = insts[i].started.Add(idleRescan)
		}
		wakes[i] = nextWakes(p.pid(), starts[i].at, rescanAt)
	}
	logf("idle: window started (pids %d, %d, %d)", pids[0].pid(), pids[1].pid(), pids[2].pid())
	// The end of the window is sampled on its own goroutine, so the window
	// stays -idle-window long while the latency run (if any) goes on.
	type ended struct {
		rows []idleRow
		err  error
	}
	endc := make(chan ended, 1)
	go func() {
		time.Sleep(o.idleWindow)
		var rows []idleRow
		for i, p := range pids {
			if p.exited() {
				endc <- ended{err: fmt.Errorf("%s exited during the window (%v): %s", names[i], p.err, p.tailStderr())}
				return
			}
			end, err := readProc(p.pid())
			if err != nil {
				endc <- ended{err: err}
				return
			}
			rows = append(rows, idleRow{name: names[i], start: starts[i], end: end, gcs: -1, wakes: wakes[i]})
		}
		for i, in := range insts {
			row := &rows[i]
			fi, _ := os.Stat(in.s.state)
			li, _ := os.Stat(in.s.events)
			row.stateMod = !fi.ModTime().Equal(marks[i].stateMod)
			if li.Size() > marks[i].logSize {
				b, _ := os.ReadFile(in.s.events)
				row.lines = bytes.Count(b[marks[i].logSize:], []byte("\n"))
			}
			if in.gc {
				row.gcs = 0
				b, _ := os.ReadFile(filepath.Join(in.s.dir, in.name+".stderr"))
				if int64(len(b)) > marks[i].stderr {
					for _, l := range strings.Split(string(b[marks[i].stderr:]), "\n") {
						if strings.HasPrefix(l, "gc ") {
							row.gcs++
						}
					}
				}
			}
		}
		logf("idle: window ended")
		endc <- ended{rows: rows}
	}()
	if during != nil {
		res.concurrent = true
		if err := during(); err != nil {
			return nil, err
		}
	}
	e := <-endc
	if e.err != nil {
		return nil, e.err
	}
	res.rows = e.rows
	for _, p := range pids {
		p.stop()
	}
	return res, nil
}

// smallInventory is a small inventory of its own server (5 tools), so the
// targets pinned together on first use do not collide.
func smallInventory(i int) []byte {
	type tool struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		InputSchema map[string]any `json:"inputSchema"`
	}
	type server struct {
		Name      string `json:"name"`
		Transport string `json:"transport"`
		URL       string `json:"url"`
		Tools     []tool `json:"tools"`
	}
	verbs := []string{"list", "get", "create", "update", "delete"}
	srv := server{Name: fmt.Sprintf("idle-server-%02d", i), Transport: "http", URL: fmt.Sprintf("https://mcp.example.test/%02d", i)}
	for _, v := range verbs {
		srv.Tools = append(srv.Tools, tool{
			Name:        v + "_records",
			Description: fmt.Sprintf("%s records in collection %02d and return them as JSON.", strings.ToUpper(v[:1])+v[1:], i),
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{
				"id": map[string]any{"type": "string", "description": "Record id."}}},
		})
	}
	b, _ := json.MarshalIndent(map[string]any{"servers": []server{srv}}, "", "  ")
	return append(b, '\n')
}

// idleRescan is the idle daemons' rescan_interval: the one timer of the
// service's own an idle daemon keeps (the watcher's safety-net rescan).
const idleRescan = 10 * time.Minute

// nextWakes says when pid's threads will next wake by themselves, read
// at `at` from what each sleeping thread is blocked in
// (/proc/PID/task/*/syscall): the Go runtime's network poller sleeps in
// epoll_pwait until its next timer (the timeout, in ms, is an argument),
// sysmon in a futex with a timeout (a relative timespec, read from
// /proc/PID/mem) of at most 60 s once every P is idle; other threads
// sleep without one. Each deadline is named: the daemon's rescan (due
// idleRescan after its start, rescanAt), sysmon's idle sleep (the
// runtime's own: sysmon wakes about once a minute and forces a GC two
// minutes after the last), or, for anything else, flagged in bold: a
// wake-up that is none of the service's timers. Reading another
// process's syscall state needs ptrace access, which a parent has under
// the default Yama policy; without it the answer is "n/a".
func nextWakes(pid int, at, rescanAt time.Time) string {
	if !procsleep.Supported() {
		return "n/a (" + runtime.GOARCH + ")"
	}
	sleeps, err := procsleep.Threads(pid)
	if err != nil {
		return "n/a"
	}
	type wake struct {
		d    time.Duration
		name string
	}
	var wakes []wake
	for _, s := range sleeps {
		if s.Running {
			wakes = append(wakes, wake{0, "**a thread running**"})
			continue
		}
		if !s.Timed {
			continue // no timer at all
		}
		d := s.Timeout
		name := fmt.Sprintf("**%.1f s: none of its timers**", d.Seconds())
		switch due := at.Add(d); {
		case !rescanAt.IsZero() && due.Sub(rescanAt).Abs() < 3*time.Second:
			name = fmt.Sprintf("rescan in %.0f s", d.Seconds())
		case s.Call == "futex" && d > 55*time.Second && d <= time.Minute:
			name = fmt.Sprintf("sysmon in %.0f s", d.Seconds())
		}
		wakes = append(wakes, wake{d, name})
	}
	if len(wakes) == 0 {
		return "none"
	}
	slices.SortFunc(wakes, func(a, b wake) int { return int(a.d - b.d) })
	names := make([]string, len(wakes))
	for i, w := range wakes {
		names[i] = w.name
	}
	return strings.Join(slices.Compact(names), ", ")
}

func (r *idleResult) print(o options) {
	fmt.Printf("### Idle: %d watched files over %v\n\n", r.targets, o.idleWindow)
	fmt.Printf("%d small inventories (5 tools each) in %d directories (%d per directory), no pin at start (trusted on first use), "+
		"`rescan_interval: 10m`, `debounce: %v`. Measured from %v after ready (ready after start: %s ms) over %v; "+
		"context switches and run time summed over every thread (/proc/PID/task/*). MB are MiB. "+
		"The next wake-ups are read at the window's start from the sleeping threads' timeouts (/proc/PID/task/*/syscall): "+
		"the daemon's rescan timer (`rescan_interval`), sysmon's idle sleep (the Go runtime's monitor: at most 60 s, and a forced GC "+
		"two minutes after the last), and in bold anything else.\n\n",
		r.targets, r.dirs, (r.targets+r.dirs-1)/r.dirs, o.debounce, o.settle, ms(r.ready), o.idleWindow)
	if r.concurrent {
		fmt.Printf("The window overlapped the latency run (another daemon, other directories), to keep the whole run short; " +
			"an idle process's counters are its own, but `-sequential` measures it on a quiet machine.\n\n")
	}
	fmt.Println("| process | CPU s (utime+stime) | CPU s (schedstat) | CPU % | RSS MB start → end | peak RSS MB (VmHWM) | RSS anon + file MB | threads | wake-ups (voluntary + involuntary ctx switches) | per second | timeslices (schedstat) | forced GCs | event lines | state.json rewritten | next wake-up at the window's start |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
	for _, row := range r.rows {
		win := row.end.at.Sub(row.start.at).Seconds()
		ticks := float64(row.end.ticks-row.start.ticks) / clkTck
		run := float64(row.end.runNS-row.start.runNS) / 1e9
		vol := row.end.vol - row.start.vol
		nvol := row.end.nvol - row.start.nvol
		gcs, lines, state := "n/a", "n/a", "n/a"
		if row.gcs >= 0 {
			gcs = strconv.Itoa(row.gcs)
		}
		if !strings.HasPrefix(row.name, "idle Go") {
			lines = strconv.Itoa(row.lines)
			state = map[bool]string{true: "yes", false: "no"}[row.stateMod]
		}
		fmt.Printf("| %s | %.2f | %.4f | %.3f | %.1f → %.1f | %.1f | %.1f + %.1f | %d | %d + %d = %d | %.2f | %d | %s | %s | %s | %s |\n",
			row.name, ticks, run, 100*run/win,
			float64(row.start.rssKB)/1024, float64(row.end.rssKB)/1024, float64(row.end.hwmKB)/1024,
			float64(row.end.anonKB)/1024, float64(row.end.fileKB)/1024,
			row.end.threads, vol, nvol, vol+nvol, float64(vol+nvol)/win, row.end.slices-row.start.slices, gcs, lines, state, row.wakes)
	}
	fmt.Println()
}
