package service

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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
	if _, ok := sleepCalls[runtime.GOARCH]; !ok {
		t.Skipf("the system call numbers of %s are not known here", runtime.GOARCH)
	}
	if _, err := os.ReadFile(fmt.Sprintf("/proc/%d/syscall", pid)); errors.Is(err, fs.ErrPermission) {
		t.Skipf("cannot read the child's /proc/PID/syscall (ptrace access denied): %v", err)
	}
	var sleeps []threadSleep
	idle := func(settled bool) func() bool {
		return func() bool {
			var err error
			sleeps, err = runtimeSleeps(pid)
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
		if s.timed && s.timeout < soon {
			t.Errorf("after a read, thread %d sleeps in %s for %v only: a deadline of the read is left in the runtime (all: %v)",
				s.tid, s.call, s.timeout, sleeps)
		}
	}
}

// threadSleep is what one thread of a process is blocked in.
type threadSleep struct {
	tid     int
	call    string // "epoll_pwait", "futex" or "other"
	running bool
	timed   bool // it sleeps with a timeout
	timeout time.Duration
}

func (s threadSleep) String() string {
	switch {
	case s.running:
		return fmt.Sprintf("%d:running", s.tid)
	case s.timed:
		return fmt.Sprintf("%d:%s(%v)", s.tid, s.call, s.timeout)
	}
	return fmt.Sprintf("%d:%s", s.tid, s.call)
}

// soon is less than sysmon's long sleep (60 s) and more than any deadline
// a read arms (fileio.ReadTimeout and a second per 4 MiB).
const soon = 50 * time.Second

// idleSleeps reports whether no thread runs and sysmon is in its long
// sleep (a futex with a timeout), which it enters once every P is idle.
func idleSleeps(sleeps []threadSleep) bool {
	sysmon := false
	for _, s := range sleeps {
		switch {
		case s.running:
			return false
		case s.call == "futex" && s.timed:
			sysmon = true
		}
	}
	return sysmon
}

// soonDue reports whether a thread sleeps with a timeout shorter than soon.
func soonDue(sleeps []threadSleep) bool {
	for _, s := range sleeps {
		if s.timed && s.timeout < soon {
			return true
		}
	}
	return false
}

// sleepCalls are the numbers of epoll_pwait and futex, by architecture.
var sleepCalls = map[string][2]string{"amd64": {"281", "202"}, "arm64": {"22", "98"}}

// runtimeSleeps reads, for every thread of pid, the system call it is
// blocked in (/proc/PID/task/TID/syscall) and its timeout: epoll_pwait's
// is an argument in milliseconds (-1: none), futex's a relative timespec
// the kernel reads from the process's memory (/proc/PID/mem).
func runtimeSleeps(pid int) ([]threadSleep, error) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return nil, err
	}
	var out []threadSleep
	for _, task := range tasks {
		tid, _ := strconv.Atoi(task.Name())
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/syscall", pid, tid))
		if err != nil {
			return nil, err
		}
		f := strings.Fields(string(b))
		s := threadSleep{tid: tid, call: "other"}
		if len(f) == 0 || f[0] == "running" {
			s.running = true
			out = append(out, s)
			continue
		}
		if len(f) < 5 {
			out = append(out, s)
			continue
		}
		arg := func(i int) uint64 { v, _ := strconv.ParseUint(strings.TrimPrefix(f[i], "0x"), 16, 64); return v }
		calls := sleepCalls[runtime.GOARCH]
		switch f[0] {
		case calls[0]: // epoll_pwait(epfd, events, maxevents, timeout ms, ...)
			s.call = "epoll_pwait"
			if ms := int32(arg(4)); ms >= 0 {
				s.timed, s.timeout = true, time.Duration(ms)*time.Millisecond
			}
		case calls[1]: // futex(uaddr, op, val, timeout, ...)
			s.call = "futex"
			if p := arg(4); p != 0 {
				ts, err := readMem(pid, p, 16)
				if err != nil {
					return nil, err
				}
				sec, nsec := int64(binary.NativeEndian.Uint64(ts)), int64(binary.NativeEndian.Uint64(ts[8:]))
				s.timed, s.timeout = true, time.Duration(sec)*time.Second+time.Duration(nsec)
			}
		}
		out = append(out, s)
	}
	return out, nil
}

func readMem(pid int, addr uint64, n int) ([]byte, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/mem", pid))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := f.ReadAt(b, int64(addr)); err != nil {
		return nil, err
	}
	return b, nil
}
