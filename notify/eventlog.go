package notify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"gopkg.in/natefinch/lumberjack.v2"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// The fixed values of the event log's ECS fields.
const (
	// ECSVersion is the version of the Elastic Common Schema the fields
	// follow (ecs.version).
	ECSVersion = "8.11.0"
	// Dataset is event.dataset; Module is event.module, agent.name and
	// agent.type.
	Dataset = "descriptorpin.events"
	Module  = "descriptorpin"
)

// ErrClosed is returned by Write after Close.
var ErrClosed = errors.New("the event log is closed")

// EventLogOptions configures an EventLog.
type EventLogOptions struct {
	File       string    // "" = no file
	MaxSizeMB  int       // rotate the file when it would grow past this size; 0 = 100 MB
	MaxBackups int       // rotated files kept; 0 = keep them all
	Stderr     io.Writer // nil = not written to stderr
	Console    bool      // stderr in zerolog ConsoleWriter form (for a person), file stays JSON
	Level      string    // debug|info|warn|error ("" = info): events below are not written
	Host       string    // host.name ("" = left out)
	Version    string    // agent.version ("" = left out)
}

// EventLog writes each event as one ECS-shaped JSON object per line to a
// rotated file and, optionally, to stderr (as the same JSON, or as a line
// of text for a person when Console is set). docs/events.md describes
// every field.
//
// The file and its rotated backups are readable by their owner only
// (0600) and its directory is created 0700. Every line reaches each
// destination in one Write, so lines never interleave. An EventLog is safe
// for concurrent use.
type EventLog struct {
	mu      sync.Mutex
	file    *lumberjack.Logger // nil: no file
	stderr  io.Writer          // nil: no stderr
	console bool
	cw      zerolog.ConsoleWriter
	minRank int
	host    string
	version string
	closed  bool

	// line and text hold the event being written; jsonLog and textLog
	// encode into them.
	line, text       bytes.Buffer
	jsonLog, textLog zerolog.Logger

	errs    uint64
	lastErr error

	// path is the file's name; seen is the file last written, to notice
	// one deleted or replaced under the running service; torn says the
	// last write stopped inside a line (a full disk), so the next line
	// starts on a new one.
	path string
	seen os.FileInfo
	torn bool
}

// NewEventLog opens the event log described by opt. With a file, the
// file's directory is created (0700) if missing and the file is created,
// or an existing one tightened, to mode 0600, as are rotated backups left
// by an earlier run.
func NewEventLog(opt EventLogOptions) (*EventLog, error) {
	minRank, ok := levelRank(opt.Level)
	if !ok {
		return nil, fmt.Errorf("unknown level %q: want debug, info, warn or error", sanitize.Text(opt.Level))
	}
	if opt.MaxSizeMB < 0 {
		return nil, fmt.Errorf("max size %d MB: must not be negative", opt.MaxSizeMB)
	}
	if opt.MaxBackups < 0 {
		return nil, fmt.Errorf("max backups %d: must not be negative", opt.MaxBackups)
	}
	l := &EventLog{
		stderr:  opt.Stderr,
		console: opt.Console,
		minRank: minRank,
		host:    sanitize.Text(opt.Host),
		version: sanitize.Text(opt.Version),
	}
	l.jsonLog = zerolog.New(&l.line)
	l.textLog = zerolog.New(&l.text)
	l.cw = zerolog.ConsoleWriter{
		Out:     opt.Stderr,
		NoColor: true, // stderr is often a journal or a file, not a terminal
		// The time as written: UTC with milliseconds, never local time.
		FormatTimestamp: func(v any) string { s, _ := v.(string); return s },
		FieldsOrder:     []string{"action", "rule", "severity", "file", "finding", "err"},
	}
	if opt.File != "" {
		if err := prepareFile(opt.File); err != nil {
			return nil, err
		}
		l.file = &lumberjack.Logger{Filename: opt.File, MaxSize: opt.MaxSizeMB, MaxBackups: opt.MaxBackups}
		l.path = opt.File
	}
	return l, nil
}

// Name implements Sink.
func (l *EventLog) Name() string { return "eventlog" }

// Send implements Sink: it writes ev and counts a failure instead of
// returning it (see Errors).
func (l *EventLog) Send(ev engine.Event) {
	if err := l.Write(ev); err != nil {
		l.mu.Lock()
		l.errs++
		l.lastErr = err
		l.mu.Unlock()
	}
}

// Errors reports how many events Send failed to write and the last error.
func (l *EventLog) Errors() (count uint64, last error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.errs, l.lastErr
}

// Write writes ev to the file and to stderr, unless its level is below the
// configured one. A failure of one destination does not stop the other;
// the errors of both are returned.
func (l *EventLog) Write(ev engine.Event) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	level := normLevel(ev.Level)
	if rank, _ := levelRank(level); rank < l.minRank {
		return nil
	}
	l.line.Reset()
	l.encode(&ev, level)
	var errs []error
	if l.file != nil {
		if err := l.writeFile(l.line.Bytes()); err != nil {
			errs = append(errs, fmt.Errorf("writing the event log file: %w", err))
		}
	}
	if l.stderr != nil {
		var err error
		if l.console {
			l.text.Reset()
			l.encodeText(&ev, level)
			_, err = l.cw.Write(l.text.Bytes())
		} else {
			_, err = l.stderr.Write(l.line.Bytes())
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("writing the event log to stderr: %w", err))
		}
	}
	return errors.Join(errs...)
}

// writeFile writes one line to the file. A file deleted under the
// running service (rm -rf of the state directory) or replaced is noticed
// and written anew at its path, never to the unlinked one; a line after
// a torn one (the disk filled in the middle of it) starts on a new line,
// in the same single write.
func (l *EventLog) writeFile(line []byte) error {
	st, err := os.Stat(l.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := prepareFile(l.path); err != nil {
			return err
		}
		_ = l.file.Close() // lumberjack opens the path again on the next write
		l.torn = false
	case err == nil && l.seen != nil && !os.SameFile(st, l.seen):
		_ = l.file.Close()
	}
	if l.torn {
		line = append([]byte{'\n'}, line...)
	}
	n, err := l.file.Write(line)
	if err != nil {
		if n > 0 {
			l.torn = true
		}
		return err
	}
	l.torn = false
	if st, err := os.Stat(l.path); err == nil {
		l.seen = st
	}
	return nil
}

// Close closes the file. Later writes return ErrClosed.
func (l *EventLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	if l.file != nil {
		if err := l.file.Close(); err != nil {
			return fmt.Errorf("closing the event log file: %w", err)
		}
	}
	return nil
}

// encode writes ev's JSON line into l.line. The keys are written in a
// fixed order and every string goes through escape.
func (l *EventLog) encode(ev *engine.Event, level string) {
	e := l.jsonLog.Log().
		Str("@timestamp", stamp(ev.Time)).
		Dict("log", zerolog.Dict().Str("level", level))
	if ev.Message != "" {
		e.Str("message", sanitize.Text(ev.Message))
	}
	e.Dict("ecs", zerolog.Dict().Str("version", ECSVersion))

	c := categorize(ev)
	ed := zerolog.Dict().Str("kind", c.kind)
	if len(c.category) > 0 {
		ed.Strs("category", c.category).Strs("type", c.typ)
	}
	ed.Str("action", sanitize.Text(ev.Action))
	if c.outcome != "" {
		ed.Str("outcome", c.outcome)
	}
	if ev.Finding != nil {
		if n := numericSeverity(ev.Finding.Severity); n > 0 {
			ed.Int("severity", n)
		}
	}
	e.Dict("event", ed.Str("dataset", Dataset).Str("module", Module))

	if f := ev.Finding; f != nil && f.Class != "" {
		id, name := ruleOf(f)
		e.Dict("rule", zerolog.Dict().
			Str("id", sanitize.Text(id)).
			Str("name", sanitize.Text(name)).
			Str("category", sanitize.Text(string(f.Class))))
	}
	if ev.File != "" {
		fd := zerolog.Dict().Str("path", sanitize.Text(ev.File))
		if watchEvent(ev.Action) {
			// The watcher reports the directory it watches; ECS file.path
			// is a file unless file.type says otherwise.
			fd.Str("type", "dir")
		}
		e.Dict("file", fd)
	}
	if ev.Error != "" {
		e.Dict("error", zerolog.Dict().Str("message", sanitize.Text(ev.Error)))
	}
	if l.host != "" {
		e.Dict("host", zerolog.Dict().Str("name", l.host))
	}
	ad := zerolog.Dict().Str("name", Module).Str("type", Module)
	if l.version != "" {
		ad.Str("version", l.version)
	}
	e.Dict("agent", ad)

	if ev.Finding != nil || ev.Pin != nil {
		e.Dict("descriptorpin", productFields(ev))
	}
	e.Send()
}

// productFields is the descriptorpin namespace: the finding (with the
// pinned and scanned digests) or the pin change.
func productFields(ev *engine.Event) *zerolog.Event {
	d := zerolog.Dict()
	if f := ev.Finding; f != nil {
		fd := zerolog.Dict().
			Str("id", sanitize.Text(f.ID)).
			Str("finding_id", sanitize.Text(f.FindingID)).
			Str("class", sanitize.Text(string(f.Class))).
			Str("subject", sanitize.Text(f.Subject))
		if f.Server != "" {
			fd.Str("server", sanitize.Text(f.Server))
		}
		if f.Tool != "" {
			fd.Str("tool", sanitize.Text(f.Tool))
		}
		fd.Str("severity", f.Severity.String())
		if f.Score != 0 {
			fd.Int("score", f.Score)
		}
		if len(f.Signals) > 0 {
			fd.Strs("signals", sanitize.Texts(f.Signals))
		}
		fd.Str("summary", sanitize.Text(f.Summary))
		if len(f.Details) > 0 {
			details := sanitize.Texts(f.Details)
			for i := range details {
				details[i] = strings.TrimSpace(details[i]) // the text report's indentation
			}
			fd.Strs("details", details)
		}
		if f.OpenedAt != "" {
			fd.Str("opened_at", sanitize.Text(f.OpenedAt))
		}
		d.Dict("finding", fd)
		if f.PinnedDigest != "" {
			d.Dict("pinned", zerolog.Dict().Str("digest", sanitize.Text(f.PinnedDigest)))
		}
		if f.ScannedDigest != "" {
			d.Dict("scanned", zerolog.Dict().Str("digest", sanitize.Text(f.ScannedDigest)))
		}
	}
	if p := ev.Pin; p != nil {
		pd := zerolog.Dict()
		for _, list := range []struct {
			key  string
			vals []string
		}{
			{"added", p.Added}, {"removed", p.Removed}, {"reapproved", p.Reapproved},
			{"accepted", p.Accepted}, {"unaccepted", p.Unaccepted}, {"approved_by", p.ApprovedBy},
		} {
			if len(list.vals) > 0 {
				pd.Strs(list.key, sanitize.Texts(list.vals))
			}
		}
		pd.Int("tools", p.Tools).Int("servers", p.Servers).Int("acceptances", p.Acceptances)
		if p.ExcludeWarning != "" {
			pd.Str("exclude_warning", sanitize.Text(p.ExcludeWarning))
		}
		d.Dict("pin", pd)
	}
	return d
}

// encodeText writes the flat event the ConsoleWriter turns into a line of
// text: time, level, message, then the few fields a person scans for.
func (l *EventLog) encodeText(ev *engine.Event, level string) {
	e := l.textLog.Log().
		Str(zerolog.TimestampFieldName, stamp(ev.Time)).
		Str(zerolog.LevelFieldName, level).
		Str(zerolog.MessageFieldName, sanitize.Text(ev.Message)).
		Str("action", sanitize.Text(ev.Action))
	if f := ev.Finding; f != nil {
		if f.Class != "" {
			id, _ := ruleOf(f)
			e.Str("rule", sanitize.Text(id))
		}
		// The scan's finding id: the one 'approve --accept' takes.
		e.Str("severity", f.Severity.String()).Str("finding", sanitize.Text(f.FindingID))
	}
	if ev.File != "" {
		e.Str("file", sanitize.Text(ev.File))
	}
	if ev.Error != "" {
		e.Str("err", sanitize.Text(ev.Error))
	}
	e.Send()
}

// stamp formats t as @timestamp: RFC 3339, UTC, milliseconds.
func stamp(t time.Time) string { return engine.Stamp(t) }

// ruleOf names the rule behind a finding: the class, joined with the
// TRANSPORT rule or the first POISON signal when there is one.
func ruleOf(f *engine.OpenFinding) (id, name string) {
	if f.Rule == "" {
		return string(f.Class), string(f.Class)
	}
	return string(f.Class) + "/" + f.Rule, f.Rule
}

// watchEvent reports whether an action is about a watched directory.
func watchEvent(action string) bool {
	return action == engine.ActionWatchDegraded || action == engine.ActionWatchRecovered
}

// categorization is an event's ECS event.kind, event.category, event.type
// and event.outcome.
type categorization struct {
	kind     string
	category []string
	typ      []string
	outcome  string
}

// categorize maps an action to its ECS categorization. Every pair is one
// ECS lists as expected (category configuration: change, creation,
// deletion, info; file: info; process: start, end, change). An action this
// version does not know is an "event" with no category.
func categorize(ev *engine.Event) categorization {
	switch ev.Action {
	case engine.ActionDaemonStarted:
		return categorization{kind: "event", category: []string{"process"}, typ: []string{"start"}}
	case engine.ActionDaemonStopped:
		return categorization{kind: "event", category: []string{"process"}, typ: []string{"end"}}
	case engine.ActionFindingOpened:
		typ := "info" // SHADOW, POISON, TRANSPORT: a risk in the configuration as it is
		if ev.Finding != nil {
			switch ev.Finding.Class {
			case engine.Mutation, engine.Launch:
				typ = "change" // a pinned descriptor or launch config changed
			case engine.Added:
				typ = "creation"
			case engine.Removed:
				typ = "deletion"
			}
		}
		return categorization{kind: "alert", category: []string{"configuration"}, typ: []string{typ}}
	case engine.ActionFindingResolved:
		return categorization{kind: "event", category: []string{"configuration"}, typ: []string{"info"}}
	case engine.ActionScanFailed:
		return categorization{kind: "event", category: []string{"file"}, typ: []string{"info"}, outcome: "failure"}
	case engine.ActionPinCreated:
		return categorization{kind: "event", category: []string{"configuration"}, typ: []string{"creation"}}
	case engine.ActionPinChanged:
		return categorization{kind: "event", category: []string{"configuration"}, typ: []string{"change"}}
	case engine.ActionStateRecreated:
		// The service wrote its state file anew (ECS 8.11: file allows
		// creation).
		return categorization{kind: "event", category: []string{"file"}, typ: []string{"creation"}}
	case engine.ActionWatchDegraded:
		return categorization{kind: "event", category: []string{"process"}, typ: []string{"change"}, outcome: "failure"}
	case engine.ActionWatchRecovered, ActionNotifyRecovered:
		return categorization{kind: "event", category: []string{"process"}, typ: []string{"change"}}
	case ActionNotifyDegraded:
		return categorization{kind: "event", category: []string{"process"}, typ: []string{"change"}, outcome: "failure"}
	}
	return categorization{kind: "event"}
}

// numericSeverity is event.severity for a finding's severity, on the scale
// Elastic's detection rules use; 0 (left out) for anything else.
func numericSeverity(v engine.Severity) int {
	switch v {
	case engine.Low:
		return 21
	case engine.Medium:
		return 47
	case engine.High:
		return 73
	case engine.Critical:
		return 99
	}
	return 0
}

// normLevel is the level an event is written with: "" is info, "warning"
// is warn, anything else is kept (escaped).
func normLevel(s string) string {
	switch s {
	case "":
		return "info"
	case "warning":
		return "warn"
	}
	return sanitize.Text(s)
}

// levelRank orders the levels; "" is info. An unknown level is reported
// as not ok and ranks as info.
func levelRank(s string) (int, bool) {
	switch strings.ToLower(s) {
	case "debug":
		return 0, true
	case "", "info":
		return 1, true
	case "warn", "warning":
		return 2, true
	case "error":
		return 3, true
	}
	return 1, false
}

// backupTime is the timestamp lumberjack puts in a rotated file's name.
const backupTime = "2006-01-02T15-04-05.000"

// prepareFile creates the log file's directory (0700) and the file
// (0600), and tightens an existing file and its rotated backups to 0600.
// Lumberjack gives each new file the mode of the one it rotates away, so
// the mode holds across rotations.
func prepareFile(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating the event log directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("opening the event log file: %w", err)
	}
	err = f.Chmod(0o600)
	if err == nil {
		err = endTornLine(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("restricting the event log file to its owner: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("reading the event log directory: %w", err)
	}
	base := filepath.Base(path)
	ext := filepath.Ext(base)
	prefix := base[:len(base)-len(ext)] + "-"
	for _, de := range entries {
		if !de.Type().IsRegular() || !isBackup(de.Name(), prefix, ext) {
			continue
		}
		info, err := de.Info()
		if err != nil || info.Mode().Perm()&0o077 == 0 {
			continue
		}
		if err := os.Chmod(filepath.Join(dir, de.Name()), 0o600); err != nil {
			return fmt.Errorf("restricting a rotated event log file to its owner: %w", err)
		}
	}
	return nil
}

// endTornLine ends a last line left without its newline (the disk was
// full, or the process was killed, in the middle of a write), so the
// next event starts on a line of its own. The torn line is kept, not cut
// away: a shipper tailing the file would take a truncation for a new
// file and send everything again; it reports the one bad line instead.
func endTornLine(f *os.File) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, st.Size()-1); err != nil {
		return err
	}
	if last[0] == '\n' {
		return nil
	}
	if _, err := f.Write([]byte{'\n'}); err != nil {
		return fmt.Errorf("ending a torn last line: %w", err)
	}
	return nil
}

// isBackup reports whether name is a backup lumberjack rotated the log
// file to: prefix, timestamp, extension, optionally gzipped.
func isBackup(name, prefix, ext string) bool {
	name = strings.TrimSuffix(name, ".gz")
	if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ext) || len(name) < len(prefix)+len(ext) {
		return false
	}
	_, err := time.Parse(backupTime, name[len(prefix):len(name)-len(ext)])
	return err == nil
}
