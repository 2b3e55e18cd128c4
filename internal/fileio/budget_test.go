package fileio

import (
	"errors"
	"io"
	"io/fs"
	"testing"
	"time"
)

// slowFile is a regular file of a given size whose first Read waits.
type slowFile struct {
	size  int64
	wait  time.Duration
	block chan struct{} // nil: wait, then read; else block until closed
	data  []byte
	off   int
}

type slowInfo struct{ size int64 }

func (i slowInfo) Name() string       { return "f" }
func (i slowInfo) Size() int64        { return i.size }
func (i slowInfo) Mode() fs.FileMode  { return 0o644 }
func (i slowInfo) ModTime() time.Time { return time.Time{} }
func (i slowInfo) IsDir() bool        { return false }
func (i slowInfo) Sys() any           { return nil }

func (f *slowFile) Stat() (fs.FileInfo, error) { return slowInfo{f.size}, nil }
func (f *slowFile) Close() error {
	if f.block != nil {
		select {
		case <-f.block:
		default:
			close(f.block)
		}
	}
	return nil
}
func (f *slowFile) Read(p []byte) (int, error) {
	if f.block != nil {
		<-f.block
		return 0, errors.New("closed")
	}
	if f.off == 0 {
		time.Sleep(f.wait)
	}
	if f.off >= len(f.data) {
		return 0, io.EOF
	}
	n := copy(p, f.data[f.off:])
	f.off += n
	return n, nil
}

// A read that stalls is abandoned after ReadTimeout; a large file gets a
// budget that grows with its size, so a slow but steady read of it is
// not cut off.
func TestReadBudgetStopsStallsNotLargeFiles(t *testing.T) {
	old := ReadTimeout
	ReadTimeout = 100 * time.Millisecond
	t.Cleanup(func() { ReadTimeout = old })

	if got := readBudget(64 << 20); got != ReadTimeout+16*time.Second {
		t.Errorf("budget of a 64 MiB file: %v", got)
	}
	stalled := &slowFile{size: 10, block: make(chan struct{})}
	_, _, err := ReadFrom(func(string) (fs.File, error) { return stalled, nil }, "target", "f", 1<<20)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("a stalled read: %v, want ErrTimeout", err)
	}
	// 40 MiB reported: a budget of 100 ms + 10 s; the read waits 300 ms.
	steady := &slowFile{size: 40 << 20, wait: 300 * time.Millisecond, data: []byte(`{"servers":[]}`)}
	data, _, err := ReadFrom(func(string) (fs.File, error) { return steady, nil }, "pin", "f", 64<<20)
	if err != nil || string(data) != `{"servers":[]}` {
		t.Fatalf("a large file read slowly: %q, %v", data, err)
	}
}
