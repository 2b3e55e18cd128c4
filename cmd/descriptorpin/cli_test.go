package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var rawBytes = regexp.MustCompile(`\\x[0-9a-fA-F]{2}`)

// binDir is a directory holding an executable named descriptorpin: this
// test binary, which testscript.Main copied there and which runs main when
// it is started under that name. Scripts and the tests that start the
// program (watch, inventory, notify...) run it as a user would, in a
// process of its own, and what it runs counts for coverage.
var binDir string

func TestMain(m *testing.M) {
	testscript.Main(withBinDir{m}, map[string]func(){
		"descriptorpin": asBuilt,
	})
}

// execEnv is the environment this process was started with. Package
// variables are initialised before any init function runs, so it is taken
// before a test file's init changes the environment for the tests (as
// notify_helpers_test.go does).
var execEnv = os.Environ()

// asBuilt runs main with the environment the program was started with, as
// a binary built from main.go would have it.
func asBuilt() {
	os.Clearenv()
	for _, kv := range execEnv {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			os.Setenv(k, v)
		}
	}
	main()
}

// withBinDir sets binDir to the directory testscript.Main put first on
// PATH, then runs the tests.
type withBinDir struct{ m *testing.M }

func (w withBinDir) Run() int {
	dir := filepath.SplitList(os.Getenv("PATH"))[0]
	name := "descriptorpin"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
		fmt.Fprintln(os.Stderr, "testscript.Main did not put descriptorpin first on PATH:", err)
		return 2
	}
	binDir = dir
	// pin and approve create the per-host key in the default state
	// directory: the tests' programs keep theirs here, not in a real home.
	state, err := os.MkdirTemp("", "descriptorpin-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(state)
	os.Setenv("XDG_STATE_HOME", state)
	return w.m.Run()
}

// TestScripts runs testdata/script/*.txtar against the program in binDir.
// Besides testscript's own commands, scripts have:
//
//	dp CODE ARGS...    run descriptorpin, assert its exit code; stdout and
//	                   stderr are kept for the stdout/stderr commands
//	bigfile NAME SIZE  create a sparse file of SIZE bytes
//	ref NAME...        copy reference files from testdata into $WORK
//	sample NAME...     copy files from samples/ into $WORK
//	rawbytes FILE...   replace each literal \xNN in FILE with that byte
func TestScripts(t *testing.T) {
	refDir, _ := filepath.Abs("../../testdata/reference")
	sampleDir, _ := filepath.Abs("../../samples")
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(e *testscript.Env) error {
			e.Setenv("PATH", binDir+string(os.PathListSeparator)+e.Getenv("PATH"))
			e.Setenv("SOURCE_DATE_EPOCH", "1767225600")
			e.Setenv("REF", refDir)
			// A home of the script's own (for the host key the CLI keeps
			// in the default state directory), never a real or shared one.
			e.Setenv("HOME", filepath.Join(e.WorkDir, ".home"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"dp": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) < 1 {
					ts.Fatalf("usage: dp CODE ARGS...")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("dp: bad exit code %q", args[0])
				}
				err = ts.Exec(filepath.Join(binDir, "descriptorpin"), args[1:]...)
				got := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					got = ee.ExitCode()
				} else if err != nil {
					ts.Fatalf("dp: %v", err)
				}
				if got != want {
					ts.Fatalf("descriptorpin exited %d, want %d", got, want)
				}
			},
			"bigfile": func(ts *testscript.TestScript, neg bool, args []string) {
				size, err := strconv.ParseInt(args[1], 10, 64)
				ts.Check(err)
				f, err := os.Create(ts.MkAbs(args[0]))
				ts.Check(err)
				ts.Check(f.Truncate(size))
				ts.Check(f.Close())
			},
			"rawbytes": func(ts *testscript.TestScript, neg bool, args []string) {
				for _, name := range args {
					data, err := os.ReadFile(ts.MkAbs(name))
					ts.Check(err)
					out := rawBytes.ReplaceAllFunc(data, func(m []byte) []byte {
						b, _ := strconv.ParseUint(string(m[2:]), 16, 8)
						return []byte{byte(b)}
					})
					ts.Check(os.WriteFile(ts.MkAbs(name), out, 0o644))
				}
			},
			"ref":    copyFrom(refDir),
			"sample": copyFrom(sampleDir),
		},
	})
}

func copyFrom(dir string) func(ts *testscript.TestScript, neg bool, args []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		for _, name := range args {
			data, err := os.ReadFile(filepath.Join(dir, name))
			ts.Check(err)
			ts.Check(os.WriteFile(ts.MkAbs(name), data, 0o644))
		}
	}
}
