//go:build linux

package capture

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 12, item 20: a stdio server whose child double-forks and calls
// setsid left the process group that stop kills, and outlived the
// capture. On Linux the capture is a child subreaper and kills what its
// servers left behind; elsewhere this is a documented limit.
func TestAServerThatDoubleForksAndCallsSetsidDoesNotOutliveTheCapture(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	r := mustCapture(t, stdioServer("escaper", "-mode", "escape", "-pid-file", pids), "", opts(20*time.Second))
	if len(r.Tools) == 0 {
		t.Fatal("no tools captured")
	}
	data, _ := os.ReadFile(pids)
	fields := strings.Fields(string(data))
	if len(fields) != 1 {
		t.Fatalf("pid file holds %q, want the escaped grandchild's pid", data)
	}
	pid, _ := strconv.Atoi(fields[0])
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		t.Errorf("the setsid grandchild %d outlived the capture", pid)
	}
}
