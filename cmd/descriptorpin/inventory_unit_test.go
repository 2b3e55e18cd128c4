package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/capture"
	"github.com/descriptorpin/descriptorpin/engine"
)

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
