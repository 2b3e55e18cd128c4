package capture

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
)

// testServer is the path of the test MCP server (internal/testserver),
// built once for the package's tests.
var testServer string

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "descriptorpin-testserver-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	testServer = filepath.Join(dir, "testserver")
	if runtime.GOOS == "windows" {
		testServer += ".exe"
	}
	build := exec.Command("go", "build", "-o", testServer, "./internal/testserver")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the test server:", err)
		return 2
	}
	return m.Run()
}

// stdioServer is a config entry launching the test server.
func stdioServer(name string, args ...string) *engine.Server {
	return &engine.Server{Name: name, Transport: "stdio", Command: testServer, Args: args}
}

// httpServer starts the test server over HTTP and returns its base URL;
// it is stopped when the test ends.
func httpServer(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(testServer, append([]string{"-transport", "http"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("test server did not report its address: %v", err)
	}
	return strings.TrimSpace(line)
}

// opts are capture options with a test environment: PATH and HOME from
// the real one, plus the given variables.
func opts(timeout time.Duration, kv ...string) Options {
	env := map[string]string{"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME")}
	for i := 0; i+1 < len(kv); i += 2 {
		env[kv[i]] = kv[i+1]
	}
	return Options{Timeout: timeout, ClientVersion: "test", Home: "/home/test",
		Lookup: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
}

func mustCapture(t *testing.T, s *engine.Server, identity string, o Options) *Result {
	t.Helper()
	r := Capture(context.Background(), s, identity, o)
	if r.Err != nil {
		t.Fatalf("capture of %s: %v", s.Name, r.Err)
	}
	return r
}

func toolNames(t *testing.T, r *Result) []string {
	t.Helper()
	doc, err := Document([]*Result{r})
	if err != nil {
		t.Fatal(err)
	}
	inv, err := inventory.Parse("test", doc)
	if err != nil {
		t.Fatalf("captured inventory does not parse: %v\n%s", err, doc)
	}
	var names []string
	for _, tool := range inv.Tools() {
		names = append(names, tool.Name)
	}
	return names
}

// alive reports whether a process exists and is not a zombie (a killed
// child whose parent died waits for init to reap it).
func alive(pid int) bool {
	if runtime.GOOS == "linux" {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return false
		}
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
			return s[i+2] != 'Z'
		}
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(sigZero) == nil
}

var sigZero = syscall.Signal(0)
