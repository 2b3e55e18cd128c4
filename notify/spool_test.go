package notify

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func testMessage(id string) Message {
	return Message{ID: id, Type: TypeFindingOpened, Timestamp: "2026-11-30T10:00:00.000Z", Data: Data{Action: "finding-opened"}}
}

func TestSpoolKeepsOrderAcrossReopenAndCleansTmp(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spool", "soc")
	s, err := openSpool(dir, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	for _, id := range []string{"msg_c", "msg_a", "msg_b"} {
		if _, err := s.add(testMessage(id), now); err != nil { // same clock reading: order still kept
			t.Fatal(err)
		}
	}
	// A write a crash interrupted.
	if err := os.WriteFile(filepath.Join(dir, "tmp", ".w-123"), []byte("{half"), 0o600); err != nil {
		t.Fatal(err)
	}
	s2, err := openSpool(dir, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(left) != 0 {
		t.Errorf("tmp/ not cleaned: %v", left)
	}
	var got []string
	for {
		e, ok := s2.head()
		if !ok {
			break
		}
		sp, err := s2.load(e)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, sp.Message.ID)
		s2.remove(e)
	}
	if len(got) != 3 || got[0] != "msg_c" || got[1] != "msg_a" || got[2] != "msg_b" {
		t.Errorf("order after reopen %v, want msg_c msg_a msg_b", got)
	}
	// Names keep increasing after a reopen even if the clock went back.
	s3, _ := openSpool(dir, 0, 0)
	s3.add(testMessage("msg_late"), now.Add(time.Hour))
	s4, _ := openSpool(dir, 0, 0)
	s4.add(testMessage("msg_back"), now.Add(-time.Hour))
	e, _ := s4.head()
	if sp, _ := s4.load(e); sp.Message.ID != "msg_late" {
		t.Errorf("a clock step back reordered the spool: head %s", sp.Message.ID)
	}
}

func TestSpoolCapsDropTheOldest(t *testing.T) {
	dir := t.TempDir()
	s, err := openSpool(dir, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	var dropped []Dropped
	for _, id := range []string{"msg_1", "msg_2", "msg_3", "msg_4", "msg_5"} {
		d, err := s.add(testMessage(id), now)
		if err != nil {
			t.Fatal(err)
		}
		dropped = append(dropped, d...)
	}
	if len(dropped) != 2 || dropped[0].ID != "msg_1" || dropped[1].ID != "msg_2" {
		t.Errorf("dropped %v, want msg_1 msg_2", dropped)
	}
	if files, _ := os.ReadDir(filepath.Join(dir, "new")); len(files) != 3 || s.len() != 3 {
		t.Errorf("%d files, %d indexed; want 3", len(files), s.len())
	}
	// The byte cap.
	sb, _ := openSpool(t.TempDir(), 0, 600)
	for i := 0; i < 10; i++ {
		sb.add(testMessage("msg_b"), now)
	}
	if sb.bytes > 600 || sb.len() == 0 {
		t.Errorf("byte cap: %d bytes in %d files", sb.bytes, sb.len())
	}
}

func TestSpoolUpdateDoesNotResurrectADroppedDelivery(t *testing.T) {
	dir := t.TempDir()
	s, _ := openSpool(dir, 1, 0)
	s.add(testMessage("msg_old"), time.Now())
	e, _ := s.head()
	sp, _ := s.load(e)
	s.add(testMessage("msg_new"), time.Now()) // drops msg_old while it is "in flight"
	sp.Attempts++
	if err := s.update(e, sp); err != nil {
		t.Fatal(err)
	}
	if files, _ := os.ReadDir(filepath.Join(dir, "new")); len(files) != 1 {
		t.Errorf("%d files after update of a dropped delivery, want 1", len(files))
	}
}

func TestSpoolFilesAreOwnerOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	dir := filepath.Join(t.TempDir(), "spool", "x")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := openSpool(dir, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.add(testMessage("msg_1"), time.Now())
	e, _ := s.head()
	sp, _ := s.load(e)
	sp.Attempts = 3
	s.update(e, sp)
	for _, p := range []string{dir, filepath.Join(dir, "tmp"), filepath.Join(dir, "new")} {
		assertPerm(t, p, 0o700)
	}
	assertPerm(t, filepath.Join(dir, "new", e.name), 0o600)
}

func assertPerm(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != want {
		t.Errorf("%s: mode %o, want %o", path, st.Mode().Perm(), want)
	}
}

func TestSpoolNameNeverHoldsTheURL(t *testing.T) {
	if got := SpoolName("soc", "https://x/secret"); got != "soc" {
		t.Errorf("named: %q", got)
	}
	got := SpoolName("", "https://hooks.example/T0KEN")
	if got == SpoolName("", "https://hooks.example/OTHER") || len(got) != len("url-")+16 {
		t.Errorf("unnamed: %q", got)
	}
}
