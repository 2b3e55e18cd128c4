//go:build linux

package capture

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"
)

const prSetChildSubreaper = 36 // PR_SET_CHILD_SUBREAPER, Linux 3.4

var subreaper struct {
	once sync.Once
	ok   bool
}

// adoptOrphans makes this process a child subreaper, once: orphans of its
// descendants are re-parented to it, where sweepOrphans finds them.
func adoptOrphans() {
	subreaper.once.Do(func() {
		_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
		subreaper.ok = errno == 0
	})
}

// sweepOrphans kills and reaps every process re-parented to this one: a
// child of ours that is in another process group than ours and is not a
// server we are running (isLive). Only capture starts processes in a
// group of their own on Linux, so such a process is a server's
// descendant that escaped its group. Killing one may orphan its own
// children, so it repeats, a bounded number of rounds (a fork bomb can
// outrun any sweep; see docs/security.md).
func sweepOrphans(isLive func(int) bool) {
	if !subreaper.ok {
		return
	}
	self, pgrp := os.Getpid(), syscall.Getpgrp()
	for round := 0; round < 20; round++ {
		var found []int
		ents, err := os.ReadDir("/proc")
		if err != nil {
			return
		}
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || isLive(pid) {
				continue
			}
			ppid, pg, ok := procParent(pid)
			if ok && ppid == self && pg != pgrp {
				found = append(found, pid)
			}
		}
		if len(found) == 0 {
			return
		}
		for _, pid := range found {
			_ = syscall.Kill(-pid, syscall.SIGKILL) // its group, when it leads one (setsid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		for _, pid := range found {
			reapPid(pid)
		}
	}
}

// procParent reads a process's parent and process group from
// /proc/PID/stat.
func procParent(pid int) (ppid, pgrp int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces and parentheses
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:]) // state ppid pgrp ...
	if len(f) < 3 {
		return 0, 0, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgrp, err2 := strconv.Atoi(string(f[2]))
	return ppid, pgrp, err1 == nil && err2 == nil
}

// reapPid waits for a killed adoptee, for at most a second (a process in
// uninterruptible sleep dies when it wakes; init reaps it if we are gone).
func reapPid(pid int) {
	deadline := time.Now().Add(time.Second)
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		if got == pid || err != nil || time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
