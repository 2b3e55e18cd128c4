package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

const wakesChildEnv = "DESCRIPTORPIN_TEST_WAKES_CHILD"

// TestNextWakesNamesTheTimers: nextWakes reads a real idle process's
// sleeping threads and names its deadlines: a child waiting on a one-hour
// timer, given as the rescan, shows the rescan and sysmon's idle sleep; a
// child waiting on a 30 s timer, which is none of the service's, is
// flagged.
func TestNextWakesNamesTheTimers(t *testing.T) {
	if d := os.Getenv(wakesChildEnv); d != "" {
		wait, err := time.ParseDuration(d)
		if err != nil {
			os.Exit(2)
		}
		timer := time.NewTimer(wait)
		os.Stdout.WriteString("up\n")
		<-timer.C
		os.Exit(0)
	}
	child := func(wait time.Duration) (int, time.Time) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestNextWakesNamesTheTimers$")
		cmd.Env = append(os.Environ(), wakesChildEnv+"="+wait.String(), "GODEBUG=")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "up\n" {
			t.Fatalf("child: %q, %v", line, err)
		}
		return cmd.Process.Pid, time.Now().Add(wait)
	}
	// settled waits (liveness bound 20 s) until the child's runtime is
	// idle: no thread running and its own start-up work over (the
	// scavenger returns what the start-up GCs freed for about a second).
	settled := func(pid int, rescanAt time.Time, done func(string) bool) string {
		var got string
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			got = nextWakes(pid, time.Now(), rescanAt)
			if strings.HasPrefix(got, "n/a") {
				t.Skipf("cannot read the child's sleeps: %s", got)
			}
			if done(got) {
				return got
			}
			if time.Now().After(deadline) {
				t.Fatalf("child never settled: %s", got)
			}
		}
	}
	pid, due := child(time.Hour)
	// settled once sysmon is in its long sleep too: before that it naps
	// in short usleeps, which show as no timer at all, and a reading
	// taken then names the rescan alone
	got := settled(pid, due, func(s string) bool { return !strings.Contains(s, "**") && strings.Contains(s, "sysmon in ") })
	if !strings.HasPrefix(got, "sysmon in ") || !strings.Contains(got, ", rescan in 3") {
		t.Errorf("one-hour timer as the rescan: %q, want sysmon's sleep, then the rescan", got)
	}
	pid, _ = child(30 * time.Second)
	// Settled: nothing running and no deadline under 2 s (the scavenger's).
	got = settled(pid, time.Time{}, func(s string) bool {
		return !strings.Contains(s, "running") && !strings.Contains(s, "**0.") && !strings.Contains(s, "**1.")
	})
	if !strings.Contains(got, "none of its timers**") || strings.Contains(got, "rescan") || strings.Contains(got, "sysmon") {
		t.Errorf("a 30 s timer that is not the rescan: %q, want it flagged (poller and sysmon both wait for it)", got)
	}
}
