package service

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/internal/procsleep"
)

// readChildEnv names the file the child of TestReadLeavesNoWakeUpBehind
// reads.
const readChildEnv = "DESCRIPTORPIN_TEST_READ_CHILD"

// TestReadLeavesNoWakeUpBehind: after the service reads a file, the Go
// runtime of an otherwise idle process holds no deadline the read left.
// A child process (this test binary, GOMAXPROCS=1 so the runtime's timer
// bookkeeping is the same every run) reads a real file as the daemon
// does, then waits on a one-hour timer as the daemon's loop waits on its
// rescan. Its sleeping threads say when the runtime will next wake: the
// network poller's epoll_pwait timeout and sysmon's futex timeout (sysmon
// sleeps at most 60 s when every P is idle). A read whose budget timer is
// stopped rather than settled leaves its deadline behind (the runtime
// removes stopped timers lazily), and the idle process wakes
// fileio.ReadTimeout after the read, for nothing: the 4 wake-ups in the
// idle window of bench/run.sh (issue 16).
func TestReadLeavesNoWakeUpBehind(t *testing.T) {
	if path := os.Getenv(readChildEnv); path != "" {
		// The read waits for the parent's signal, so that the runtime's
		// own start-up work (the scavenger returning what the test
		// binary's start-up GCs freed, about a second) is over first.
		start := make(chan os.Signal, 1)
		signal.Notify(start, syscall.SIGUSR1)
		fmt.Println("up")
		<-start
		if _, _, err := read(OS{}, "target", path); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("read")
		<-time.After(time.Hour)
		os.Exit(0)
	}
	target := filepath.Join(t.TempDir(), "inv.json")
	if err := os.WriteFile(target, []byte(invClean), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReadLeavesNoWakeUpBehind$")
	cmd.Env = append(os.Environ(), readChildEnv+"="+target, "GOMAXPROCS=1", "GODEBUG=")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewReader(out)
	expect := func(want string) {
		t.Helper()
		if line, err := lines.ReadString('\n'); err != nil || line != want+"\n" {
			t.Fatalf("child: %q, %v; want %q", line, err, want)
		}
	}
	expect("up")
	pid := cmd.Process.Pid
	if !procsleep.Supported() {
		t.Skipf("the system call numbers of %s are not known here", runtime.GOARCH)
	}
	if _, err := os.ReadFile(fmt.Sprintf("/proc/%d/syscall", pid)); errors.Is(err, fs.ErrPermission) {
		t.Skipf("cannot read the child's /proc/PID/syscall (ptrace access denied): %v", err)
	}
	var sleeps []procsleep.Sleep
	idle := func(settled bool) func() bool {
		return func() bool {
			var err error
			sleeps, err = procsleep.Threads(pid)
			if errors.Is(err, fs.ErrPermission) {
				t.Skipf("cannot read the child's memory (ptrace access denied): %v", err)
			}
			return err == nil && idleSleeps(sleeps) && (!settled || !soonDue(sleeps))
		}
	}
	waitFor(t, "the child settled before its read (every thread asleep, nothing due within 50 s)", idle(true))
	if err := cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	expect("read")
	waitFor(t, "the child idle after its read (every thread asleep, sysmon in its long sleep)", idle(false))
	for _, s := range sleeps {
		if s.Timed && s.Timeout < soon {
			t.Errorf("after a read, thread %d sleeps in %s for %v only: a deadline of the read is left in the runtime (all: %v)",
				s.TID, s.Call, s.Timeout, sleeps)
		}
	}
}

// soon is less than sysmon's long sleep (60 s) and more than any deadline
// a read arms (fileio.ReadTimeout and a second per 4 MiB).
const soon = 50 * time.Second

// idleSleeps reports whether no thread runs and sysmon is in its long
// sleep (a futex with a timeout), which it enters once every P is idle.
func idleSleeps(sleeps []procsleep.Sleep) bool {
	sysmon := false
	for _, s := range sleeps {
		switch {
		case s.Running:
			return false
		case s.Call == "futex" && s.Timed:
			sysmon = true
		}
	}
	return sysmon
}

// soonDue reports whether a thread sleeps with a timeout shorter than soon.
func soonDue(sleeps []procsleep.Sleep) bool {
	for _, s := range sleeps {
		if s.Timed && s.Timeout < soon {
			return true
		}
	}
	return false
}
