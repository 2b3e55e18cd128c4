package procsleep

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

const childEnv = "DESCRIPTORPIN_TEST_PROCSLEEP_CHILD"

// TestThreadsReadsAnIdleChild: a child that waits on a one-hour timer has
// a thread in epoll_pwait with a timeout near an hour (the runtime's
// poller waits for that timer) and no thread running.
func TestThreadsReadsAnIdleChild(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		timer := time.NewTimer(time.Hour)
		os.Stdout.WriteString("up\n")
		<-timer.C
		os.Exit(0)
	}
	if !Supported() {
		t.Skip("no system call numbers for this architecture")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestThreadsReadsAnIdleChild$")
	cmd.Env = append(os.Environ(), childEnv+"=1", "GOMAXPROCS=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	buf := make([]byte, 3)
	if _, err := out.Read(buf); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		sleeps, err := Threads(cmd.Process.Pid)
		if err != nil {
			t.Skipf("cannot read the child's threads (ptrace access?): %v", err)
		}
		long := false
		running := false
		for _, s := range sleeps {
			running = running || s.Running
			long = long || s.Call == "epoll_pwait" && s.Timed && s.Timeout > 50*time.Minute
		}
		if long && !running {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no thread waits about an hour in epoll_pwait: %v", sleeps)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
