// Package procsleep reads what each thread of a Linux process is blocked
// in and for how long: the Go runtime's network poller sleeps in
// epoll_pwait until its next timer (the timeout, in milliseconds, is an
// argument), sysmon in a futex with a relative timespec the kernel reads
// from the process's memory. The service's idle-wake-up test and the
// bench's idle row read a process's next wake-ups through it. Reading
// another process's syscall state needs ptrace access, which a parent has
// under the default Yama policy.
package procsleep

import (
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Sleep is what one thread of a process is blocked in.
type Sleep struct {
	TID     int
	Call    string // "epoll_pwait", "futex" or "other"
	Running bool
	Timed   bool // it sleeps with a timeout
	Timeout time.Duration
}

func (s Sleep) String() string {
	switch {
	case s.Running:
		return fmt.Sprintf("%d:running", s.TID)
	case s.Timed:
		return fmt.Sprintf("%d:%s(%v)", s.TID, s.Call, s.Timeout)
	}
	return fmt.Sprintf("%d:%s", s.TID, s.Call)
}

// calls are the numbers of epoll_pwait and futex, by architecture.
var calls = map[string][2]string{"amd64": {"281", "202"}, "arm64": {"22", "98"}}

// Supported reports whether Threads knows this architecture's system
// call numbers.
func Supported() bool {
	_, ok := calls[runtime.GOARCH]
	return ok
}

// Threads reads, for every thread of pid, the system call it is blocked
// in (/proc/PID/task/TID/syscall) and its timeout: epoll_pwait's is an
// argument in milliseconds (-1: none), futex's a relative timespec read
// from /proc/PID/mem.
func Threads(pid int) ([]Sleep, error) {
	nums, ok := calls[runtime.GOARCH]
	if !ok {
		return nil, fmt.Errorf("procsleep: no system call numbers for %s", runtime.GOARCH)
	}
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return nil, err
	}
	var out []Sleep
	for _, task := range tasks {
		tid, _ := strconv.Atoi(task.Name())
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/syscall", pid, tid))
		if err != nil {
			return nil, err
		}
		f := strings.Fields(string(b))
		s := Sleep{TID: tid, Call: "other"}
		if len(f) == 0 || f[0] == "running" {
			s.Running = true
			out = append(out, s)
			continue
		}
		if len(f) < 5 {
			out = append(out, s)
			continue
		}
		arg, _ := strconv.ParseUint(strings.TrimPrefix(f[4], "0x"), 16, 64)
		switch f[0] {
		case nums[0]: // epoll_pwait(epfd, events, maxevents, timeout ms, ...)
			s.Call = "epoll_pwait"
			if ms := int32(arg); ms >= 0 {
				s.Timed, s.Timeout = true, time.Duration(ms)*time.Millisecond
			}
		case nums[1]: // futex(uaddr, op, val, timeout, ...)
			s.Call = "futex"
			if arg != 0 {
				ts, err := readMem(pid, arg, 16)
				if err != nil {
					return nil, err
				}
				sec, nsec := int64(binary.NativeEndian.Uint64(ts)), int64(binary.NativeEndian.Uint64(ts[8:]))
				s.Timed, s.Timeout = true, time.Duration(sec)*time.Second+time.Duration(nsec)
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
