package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/service"
)

// TestExitCodes: the one switch, for each kind of error.
func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		code   int
		stderr string
	}{
		{"clean", nil, 0, ""},
		{"help", flag.ErrHelp, 0, ""},
		{"findings", errFindings, 1, ""},
		{"a sink failed its test", errSinksFailed, 1, ""},
		{"usage", usagef("watch", "watch takes no arguments"), 2, "hint: run 'descriptorpin help watch'"},
		{"config", errors.New("config.yaml:3: unknown key"), 2, "descriptorpin: error: config.yaml:3: unknown key"},
		{"runtime", service.Runtime(errors.New("starting the watcher: too many open files")), 3, "descriptorpin: error: starting the watcher"},
		{"runtime, wrapped", fmt.Errorf("watch: %w", service.Runtime(errors.New("the watcher stopped unexpectedly"))), 3, "the watcher stopped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if got := exitCode(tc.err, &stderr); got != tc.code {
				t.Errorf("exit %d, want %d", got, tc.code)
			}
			if !strings.Contains(stderr.String(), tc.stderr) || tc.stderr == "" && stderr.Len() != 0 {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.stderr)
			}
		})
	}
}
