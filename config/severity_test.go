package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
)

// Issue 11: the config's severity thresholds are engine.Severity, read
// from the same words state.json and the events carry.
func TestMinSeverityIsTheEngineSeverity(t *testing.T) {
	cfg, err := Parse(strings.NewReader("notify:\n  desktop:\n    min_severity: high\n  webhooks:\n    - url: https://h.example/\n      min_severity: low\n"))
	if err != nil {
		t.Fatal(err)
	}
	var want engine.Severity = engine.High
	if cfg.Notify.Desktop.MinSeverity != want || cfg.Notify.Webhooks[0].MinSeverity != engine.Low {
		t.Errorf("desktop %v, webhook %v; want high, low", cfg.Notify.Desktop.MinSeverity, cfg.Notify.Webhooks[0].MinSeverity)
	}
	if d := Default(); d.Notify.Desktop.MinSeverity != engine.Medium || defaultWebhook().MinSeverity != engine.Medium {
		t.Errorf("defaults %v, %v; want medium", d.Notify.Desktop.MinSeverity, defaultWebhook().MinSeverity)
	}
}

func TestUnknownMinSeverityIsAParseErrorWithTheLine(t *testing.T) {
	_, err := Parse(strings.NewReader("notify:\n  desktop:\n    min_severity: info\n"))
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Line != 3 || fe.Field != "notify.desktop.min_severity" ||
		fe.Msg != `must be one of low, medium, high, critical (got "info")` {
		t.Fatalf("err = %v, want line 3 notify.desktop.min_severity: must be one of …", err)
	}
}

// Issue 17: "nothing to watch" is the service's requirement, not every
// command's: Validate accepts a config without targets and with discover
// false (notify test and status read it); ValidateWatch refuses it.
func TestNothingToWatchIsForWatchOnly(t *testing.T) {
	cfg, err := Parse(strings.NewReader("discover: false\npin: /p/pin.json\nstate_dir: /p/state\nlog:\n  file: /p/events.jsonl\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	var fe *FieldError
	if err := cfg.ValidateWatch(); !errors.As(err, &fe) || fe.Field != "targets" || !strings.Contains(fe.Msg, "nothing to watch") {
		t.Errorf("ValidateWatch = %v, want targets: nothing to watch", err)
	}
	cfg.Discover = true
	if err := cfg.ValidateWatch(); err != nil {
		t.Errorf("ValidateWatch with discover: %v", err)
	}
}
