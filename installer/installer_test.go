package installer

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/config"
)

// The pure parts of the installer (moved with the code from
// cmd/descriptorpin/service_test.go); the install/uninstall behaviour is in
// cmd/descriptorpin/testdata/script/service_systemd*.txtar.

func TestSystemdEscape(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/bin/descriptorpin": "/usr/bin/descriptorpin",
		"/home/a b/x":            "/home/a b/x",
		"/home/100%/x":           "/home/100%%/x",
		"/home/$USER/x":          "/home/$$USER/x",
		`/home/a\b`:              `/home/a\\b`,
	} {
		if got := SystemdEscape(in); got != want {
			t.Errorf("SystemdEscape(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := SystemdEscapeExec(`/opt/100% $x\y`), `/opt/100%% $x\\y`; got != want {
		t.Errorf("SystemdEscapeExec = %q, want %q", got, want)
	}
}

// TestExampleConfigFor: the config install writes parses and validates for
// every manager; under launchd and a Windows service, where stderr is not
// rotated or goes nowhere, it turns stderr off.
func TestExampleConfigFor(t *testing.T) {
	for _, m := range []string{"systemd", "launchd", "windows-service", "sysv"} {
		text := ExampleConfigFor(Manager{Name: m})
		cfg, err := config.Parse(strings.NewReader(text))
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		wantStderr := m != "launchd" && m != "windows-service"
		if cfg.Log.Stderr != wantStderr {
			t.Errorf("%s: log.stderr = %v, want %v", m, cfg.Log.Stderr, wantStderr)
		}
	}
}

// TestPackagingExamples: the fleet config the packages ship loads and
// validates, and the launchd template is a well-formed plist with the
// agent's settings.
func TestPackagingExamples(t *testing.T) {
	cfg, err := config.Load("../packaging/examples/fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TrustOnFirstUse || cfg.Pin != "/etc/descriptorpin/pin.json" {
		t.Errorf("fleet.yaml: trust_on_first_use %v, pin %q; want false and the fleet's pin", cfg.TrustOnFirstUse, cfg.Pin)
	}

	data, err := os.ReadFile("../packaging/launchd/com.github.descriptorpin.plist")
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(strings.NewReader(string(data)))
	var keys []string
	inKey := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the launchd plist is not well-formed XML: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			inKey = tk.Name.Local == "key"
		case xml.CharData:
			if inKey {
				keys = append(keys, string(tk))
			}
		case xml.EndElement:
			inKey = false
		}
	}
	for _, want := range []string{"Label", "ProgramArguments", "RunAtLoad", "KeepAlive", "StandardOutPath", "StandardErrorPath"} {
		found := false
		for _, k := range keys {
			found = found || k == want
		}
		if !found {
			t.Errorf("the launchd plist lacks %s (keys: %v)", want, keys)
		}
	}
	if !strings.Contains(string(data), "<string>"+launchdLabel+"</string>") {
		t.Errorf("the launchd plist's Label is not %s", launchdLabel)
	}
}

func TestReadLastEvent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "events.jsonl")
	if ev, err := readLastEvent(p); ev != nil || err == nil {
		t.Errorf("missing file: %v, %v; want nil and an error", ev, err)
	}
	lines := `{"@timestamp":"2026-11-30T10:00:00.123Z","message":"started","event":{"action":"daemon-started"}}
{"@timestamp":"2026-11-30T10:00:05.250Z","message":"MUTATION a/b","event":{"action":"finding-opened"}}
{"@timestamp":"2026-11-30T10:00:0`
	if err := os.WriteFile(p, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	ev, err := readLastEvent(p)
	if err != nil || ev == nil {
		t.Fatalf("readLastEvent: %v, %v", ev, err)
	}
	if ev.Timestamp != "2026-11-30T10:00:05.250Z" || ev.Action != "finding-opened" || ev.Message != "MUTATION a/b" {
		t.Errorf("a half-written last line must be skipped: got %+v", ev)
	}
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if ev, err := readLastEvent(p); ev != nil || err != nil {
		t.Errorf("empty file: %v, %v; want nil, nil", ev, err)
	}
}

func TestChooseManagerNames(t *testing.T) {
	for _, tc := range []struct{ in, platform string }{
		{"systemd", "linux-systemd"}, {"linux-systemd", "linux-systemd"},
		{"launchd", "darwin-launchd"}, {"windows-service", "windows-service"},
		{"sysv", "unix-systemv"}, {"something-else", "something-else"},
	} {
		if got := PlatformOf(tc.in); got != tc.platform {
			t.Errorf("PlatformOf(%q) = %q, want %q", tc.in, got, tc.platform)
		}
		if tc.in != tc.platform {
			if got := FriendlyManager(tc.platform); got != tc.in {
				t.Errorf("FriendlyManager(%q) = %q, want %q", tc.platform, got, tc.in)
			}
		}
	}
}

func TestMissingDirsStopsAtHome(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	t.Setenv("HOME", home)
	got := missingDirs(filepath.Join(home, ".config", "systemd", "user"))
	want := []string{filepath.Join(home, ".config", "systemd", "user"), filepath.Join(home, ".config", "systemd"), filepath.Join(home, ".config")}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("missingDirs = %v, want %v (never the home directory itself)", got, want)
	}
}
