package main

import (
	"io"

	"github.com/descriptorpin/descriptorpin/capture"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// useColor decides --color: auto paints only a terminal and honours
// NO_COLOR (https://no-color.org) and TERM=dumb; always and never are what
// they say (an explicit flag beats the environment).
func useColor(e *env, cmd, mode string) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		if e.getenv("NO_COLOR") != "" || e.getenv("TERM") == "dumb" {
			return false, nil
		}
		r, ok := e.stdout.(io.Reader)
		return ok && capture.IsTerminal(r), nil
	}
	return false, usagef(cmd, "--color must be auto, always or never, got %q", sanitize.Text(mode))
}

// parseFailOn reads --fail-on: the lowest severity that fails the run.
// Unset, any finding fails, as in the original.
func parseFailOn(cmd, v string) (engine.Severity, error) {
	if v == "" {
		return engine.Low, nil
	}
	sv, ok := engine.ParseSeverity(v)
	if !ok {
		return 0, usagef(cmd, "--fail-on must be low, medium, high or critical, got %q", sanitize.Text(v))
	}
	return sv, nil
}
