package notify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
)

// The spool is a maildir-style directory per webhook endpoint:
//
//	<dir>/tmp/   a delivery being written (removed at start-up: it was never spooled)
//	<dir>/new/   spooled deliveries, one JSON file each, oldest first by name
//
// A delivery is written to tmp/, fsynced and renamed into new/ before its
// first attempt, so it survives a crash, a SIGKILL or a reboot of the
// process. The worker deletes it once delivered; a failed attempt
// rewrites it the same way (attempt count, last error). Files are 0600,
// directories 0700. A count and a size cap bound the spool: when a new
// delivery passes either, deliveries are dropped by severity, never a
// more severe one while a less severe one is queued (see evict).
//
// A file is named <UTC nanoseconds, 20 digits>.<webhook-id>.<severity>.json,
// so the names sort in spooling order and say which delivery they hold and
// how much it matters, without reading it (a spool of 10,000 files is
// indexed at start-up from the names alone). Files of the earlier
// <nanoseconds>.<webhook-id>.json form are read once to learn their
// severity.

// Default spool caps, per endpoint.
const (
	DefaultSpoolMaxFiles = 10000
	DefaultSpoolMaxBytes = 50 << 20
)

// spooled is a spool file's content.
type spooled struct {
	V         int     `json:"v"`
	Message   Message `json:"message"`
	Spooled   string  `json:"spooled"`              // when it was spooled
	Attempts  int     `json:"attempts"`             // failed attempts so far
	LastError string  `json:"last_error,omitempty"` // the last failure (status or network error, never the URL)
}

const spoolVersion = 1

type spoolEntry struct {
	name string
	size int64
	rank int // eviction priority: engine.Severity of the delivery (see priority)
}

// Dropped is one delivery the spool's caps pushed out.
type Dropped struct {
	ID       string // the webhook-id
	Severity engine.Severity
}

// priority is how much a delivery matters when the spool must drop some:
// its finding's severity; a health event (watch-degraded) is
// HealthSeverity; a finding of an unknown severity ranks as critical, so
// that, as in Accepts, it is never dropped by accident.
func priority(m Message) engine.Severity {
	if f := m.Data.OpenFinding; f != nil {
		if v := f.Severity; v >= engine.Low && v <= engine.Critical {
			return v
		}
		return engine.Critical
	}
	return HealthSeverity
}

// rankFromName reads the severity part of a spool file name; ok is false
// for a name of the earlier form, which has none.
func rankFromName(name string) (int, bool) {
	parts := strings.Split(strings.TrimSuffix(name, ".json"), ".")
	if len(parts) != 3 {
		return 0, false
	}
	v, ok := engine.ParseSeverity(parts[2])
	return int(v), ok
}

type spool struct {
	dir      string
	maxFiles int
	maxBytes int64

	mu      sync.Mutex
	entries []spoolEntry // oldest first
	bytes   int64
	last    int64 // the last name's timestamp, so names stay increasing
}

// SpoolName is the directory name of an endpoint's spool inside
// <state_dir>/spool: the webhook's name, or for an unnamed webhook "url-"
// and a digest of its URL (never the URL itself).
func SpoolName(name, rawURL string) string {
	if name != "" {
		return name
	}
	sum := sha256.Sum256([]byte(rawURL))
	return "url-" + hex.EncodeToString(sum[:8])
}

// openSpool opens (creating) the spool in dir, drops what a crash left in
// tmp/, and indexes new/.
func openSpool(dir string, maxFiles int, maxBytes int64) (*spool, error) {
	if maxFiles <= 0 {
		maxFiles = DefaultSpoolMaxFiles
	}
	if maxBytes <= 0 {
		maxBytes = DefaultSpoolMaxBytes
	}
	s := &spool{dir: dir, maxFiles: maxFiles, maxBytes: maxBytes}
	for _, d := range []string{dir, s.tmp(), s.new()} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("creating the webhook spool: %w", err)
		}
		if runtime.GOOS != "windows" {
			if err := os.Chmod(d, 0o700); err != nil {
				return nil, fmt.Errorf("securing the webhook spool: %w", err)
			}
		}
	}
	tmps, err := os.ReadDir(s.tmp())
	if err != nil {
		return nil, fmt.Errorf("reading the webhook spool: %w", err)
	}
	for _, de := range tmps {
		_ = os.Remove(filepath.Join(s.tmp(), de.Name()))
	}
	news, err := os.ReadDir(s.new())
	if err != nil {
		return nil, fmt.Errorf("reading the webhook spool: %w", err)
	}
	for _, de := range news {
		if !de.Type().IsRegular() || !strings.HasSuffix(de.Name(), ".json") {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue
		}
		e := spoolEntry{name: de.Name(), size: info.Size()}
		var ok bool
		if e.rank, ok = rankFromName(e.name); !ok {
			e.rank = int(engine.Critical) // unreadable: kept, and the worker reports it
			if sp, err := s.load(e); err == nil {
				e.rank = int(priority(sp.Message))
			}
		}
		s.entries = append(s.entries, e)
		s.bytes += info.Size()
	}
	sort.Slice(s.entries, func(i, j int) bool { return s.entries[i].name < s.entries[j].name })
	if n := len(s.entries); n > 0 {
		_, _ = fmt.Sscanf(s.entries[n-1].name, "%d.", &s.last)
	}
	return s, nil
}

func (s *spool) tmp() string { return filepath.Join(s.dir, "tmp") }
func (s *spool) new() string { return filepath.Join(s.dir, "new") }

// len reports how many deliveries are spooled.
func (s *spool) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

// add spools m durably. When the spool then holds more than its caps
// allow, deliveries are deleted (see evict) and returned, m itself
// included when it is the least severe.
func (s *spool) add(m Message, now time.Time) (dropped []Dropped, err error) {
	data, err := json.Marshal(spooled{V: spoolVersion, Message: m, Spooled: stampRFC3339(now)})
	if err != nil {
		return nil, fmt.Errorf("encoding a delivery: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ts := now.UnixNano()
	if ts <= s.last {
		ts = s.last + 1
	}
	s.last = ts
	sev := priority(m)
	name := fmt.Sprintf("%020d.%s.%s.json", ts, safeName(m.ID), sev)
	if err := writeSynced(s.tmp(), filepath.Join(s.new(), name), data); err != nil {
		return nil, err
	}
	s.entries = append(s.entries, spoolEntry{name: name, size: int64(len(data)), rank: int(sev)})
	s.bytes += int64(len(data))
	for len(s.entries) > 1 && (len(s.entries) > s.maxFiles || s.bytes > s.maxBytes) {
		i := s.evict()
		old := s.entries[i]
		s.entries = append(s.entries[:i], s.entries[i+1:]...)
		s.bytes -= old.size
		_ = os.Remove(filepath.Join(s.new(), old.name))
		dropped = append(dropped, Dropped{ID: idOf(old.name), Severity: engine.Severity(old.rank)})
	}
	return dropped, nil
}

// evict picks the delivery to drop when the spool is over its caps: the
// oldest of the least severe. Dropping the oldest of all, as a plain
// queue would, lets anyone who can cause findings push a critical one out
// with a flood of low ones (10,050 junk findings evicted a POISON and a
// MUTATION); by severity, a high or critical delivery is only ever
// dropped when nothing less severe is left, and then the oldest of its
// severity goes (the newer one describes the current state).
func (s *spool) evict() int {
	best := 0
	for i := 1; i < len(s.entries); i++ {
		if s.entries[i].rank < s.entries[best].rank {
			best = i
		}
	}
	return best
}

// head returns the oldest spooled delivery.
func (s *spool) head() (spoolEntry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.entries) == 0 {
		return spoolEntry{}, false
	}
	return s.entries[0], true
}

// load reads a spooled delivery.
func (s *spool) load(e spoolEntry) (*spooled, error) {
	data, err := os.ReadFile(filepath.Join(s.new(), e.name))
	if err != nil {
		return nil, err
	}
	var sp spooled
	if err := json.Unmarshal(data, &sp); err != nil {
		return nil, fmt.Errorf("spool file %s: %w", e.name, err)
	}
	if sp.V != spoolVersion || sp.Message.ID == "" {
		return nil, fmt.Errorf("spool file %s: not a version %d delivery", e.name, spoolVersion)
	}
	return &sp, nil
}

// update rewrites a delivery after a failed attempt, unless it was dropped
// meanwhile.
func (s *spool) update(e spoolEntry, sp *spooled) error {
	data, err := json.Marshal(sp)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.index(e.name)
	if i < 0 {
		return nil
	}
	if err := writeSynced(s.tmp(), filepath.Join(s.new(), e.name), data); err != nil {
		return err
	}
	s.bytes += int64(len(data)) - s.entries[i].size
	s.entries[i].size = int64(len(data))
	return nil
}

// remove deletes a delivery (delivered, or given up on).
func (s *spool) remove(e spoolEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.index(e.name)
	if i < 0 {
		return
	}
	s.bytes -= s.entries[i].size
	s.entries = append(s.entries[:i], s.entries[i+1:]...)
	// A file that cannot be removed is sent again after a restart: at
	// least once, deduplicable by its webhook-id.
	_ = os.Remove(filepath.Join(s.new(), e.name))
}

func (s *spool) index(name string) int {
	for i, e := range s.entries {
		if e.name == name {
			return i
		}
	}
	return -1
}

// syncNew makes the renames into new/ durable (a power loss, not only a
// crash). The worker calls it off the service loop before first attempts.
func (s *spool) syncNew() {
	if runtime.GOOS == "windows" {
		return
	}
	if d, err := os.Open(s.new()); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// writeSynced writes data to a new file in tmpDir, fsyncs it and renames
// it to dst (replacing dst). The fsync of new/ is left to syncNew.
func writeSynced(tmpDir, dst string, data []byte) error {
	if err := fileio.WriteAtomicWith(dst, data, 0o600, fileio.Options{TempDir: tmpDir, NoDirSync: true}); err != nil {
		return fmt.Errorf("spooling a delivery: %w", err)
	}
	return nil
}

// safeName keeps a webhook-id usable in a file name.
func safeName(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, id)
}

// idOf is the webhook-id in a spool file name (either form).
func idOf(name string) string {
	parts := strings.Split(strings.TrimSuffix(name, ".json"), ".")
	if len(parts) >= 2 {
		return parts[1]
	}
	return parts[0]
}
