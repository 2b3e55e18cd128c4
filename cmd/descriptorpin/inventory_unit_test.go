package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/capture"
	"github.com/descriptorpin/descriptorpin/engine"
)

func TestConsentAnswer(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{{"y\n", true}, {"YES\n", true}, {" yes \n", true}, {"n\n", false}, {"\n", false}, {"", false}, {"yep\n", false}} {
		var w bytes.Buffer
		if got := yes(context.Background(), strings.NewReader(tc.in), &w); got != tc.want {
			t.Errorf("answer %q: consent = %v, want %v", tc.in, got, tc.want)
		}
		if tc.in == "" && w.String() != "\n" {
			t.Errorf("no answer should end the prompt's line, wrote %q", w.String())
		}
	}
}

func TestOnlyATerminalIsAsked(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, in := range map[string]io.Reader{"null device": null, "pipe": r, "reader": strings.NewReader("y\n")} {
		if isTerminal(in) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
}

func TestConsentListsCommandsAndRefusesWithoutATerminal(t *testing.T) {
	var stderr bytes.Buffer
	e := &env{ctx: context.Background(), stdin: strings.NewReader("y\n"), stdout: &bytes.Buffer{}, stderr: &stderr, getenv: os.Getenv}
	servers := []*engine.Server{
		{Name: "cursor:files", Transport: "stdio", Command: "npx", Args: []string{"-y", "files@1.2.3", "--token", "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"}, EnvKeys: []string{"ROOT", "TOKEN"}},
		{Name: "cursor:web", Transport: "http", URL: "https://mcp.example.test/mcp"},
	}
	err := consent(e, "mcp.json", servers, false, captureOptionsForTest())
	if err == nil || !strings.Contains(err.Error(), "not running 1 command from a config file without consent") {
		t.Fatalf("err = %v", err)
	}
	out := stderr.String()
	for _, want := range []string{"capturing runs 1 command from mcp.json:", "  cursor:files: npx -y files@1.2.3 --token REDACTED",
		"env from the config: ROOT, TOKEN", "nothing else of it"} {
		if !strings.Contains(out, want) {
			t.Errorf("listing lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "ghp_") || strings.Contains(out, "cursor:web") {
		t.Errorf("listing shows a secret or an HTTP server:\n%s", out)
	}
	if err := consent(e, "mcp.json", servers, true, captureOptionsForTest()); err != nil {
		t.Errorf("--allow-exec: %v", err)
	}
	if err := consent(e, "mcp.json", servers[1:], false, captureOptionsForTest()); err != nil {
		t.Errorf("HTTP only: %v", err)
	}
}

func captureOptionsForTest() capture.Options {
	return capture.Options{Lookup: os.LookupEnv, GOOS: "linux"}
}
