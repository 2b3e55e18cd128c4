package capture

import "sync"

// A stdio server runs in a process group of its own, and stop kills the
// group; but a server that double-forks and calls setsid (or setpgid)
// leaves the group, and the group kill misses it: it outlived inventory.
// Where the OS has a way to keep such an escapee as our own descendant,
// reap.go's platform half uses it: on Linux, descriptorpin becomes a
// child subreaper (prctl PR_SET_CHILD_SUBREAPER, no privilege needed), so
// an orphaned descendant of a server is re-parented to descriptorpin
// instead of init, and sweep kills it once no server is running.
//
// live tracks the servers running now, so a sweep never mistakes one of
// them (or one being started) for an escapee.
var live struct {
	sync.Mutex
	starting int
	pids     map[int]bool
}

// beginStart is called before a server is started; endStart after, with
// its pid (0 when the start failed).
func beginStart() {
	live.Lock()
	live.starting++
	live.Unlock()
	adoptOrphans()
}

func endStart(pid int) {
	live.Lock()
	defer live.Unlock()
	live.starting--
	if pid > 0 {
		if live.pids == nil {
			live.pids = map[int]bool{}
		}
		live.pids[pid] = true
	}
}

// reaped is called once a server has been waited for; when it was the
// last one running, whatever its (or an earlier server's) descendants
// left behind is killed.
func reaped(pid int) {
	live.Lock()
	delete(live.pids, pid)
	idle := live.starting == 0 && len(live.pids) == 0
	if idle {
		// Still holding the lock: no server starts while the sweep runs.
		sweepOrphans(func(pid int) bool { return live.pids[pid] })
	}
	live.Unlock()
}
