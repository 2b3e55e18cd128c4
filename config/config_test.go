package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
)

// fullExample is the complete config of the design brief.
const fullExample = `pin: ~/.config/descriptorpin/pin.json
state_dir: ~/.local/state/descriptorpin
discover: true            # also watch every MCP client config found on this host
trust_on_first_use: true
rules: default            # default | reference
debounce: 150ms
rescan_interval: 10m
targets:
  - path: ~/work/mcp/inventory.json
    kind: inventory       # inventory | client-config | auto (default)
log:
  file: ~/.local/state/descriptorpin/events.jsonl
  stderr: true
  format: json            # json | console
  level: info             # debug | info | warn | error
  max_size_mb: 50
  max_backups: 5
notify:
  desktop:
    enabled: true
    min_severity: medium
  webhooks:
    - url: https://hooks.example/x
      format: standard
      secret_env: DP_WEBHOOK_SECRET
      min_severity: high
      timeout: 10s
`

const testHome = "/home/tester"

// setHome points the home directory (and the XDG variables, unset) at
// testHome so that Default and Expand are deterministic.
func setHome(t *testing.T) {
	t.Helper()
	t.Setenv("HOME", testHome)
	t.Setenv("USERPROFILE", testHome)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
}

// parseString parses s and fails the test on error.
func parseString(t *testing.T, s string) Config {
	t.Helper()
	cfg, err := Parse(strings.NewReader(s))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return cfg
}

// plain drops the bookkeeping fields so that configs compare by value.
func plain(c Config) Config {
	c.lines, c.source = nil, ""
	return c
}

func TestParseFullExample(t *testing.T) {
	setHome(t)
	got := parseString(t, fullExample)
	want := Config{
		Pin:             "/home/tester/.config/descriptorpin/pin.json",
		StateDir:        "/home/tester/.local/state/descriptorpin",
		Discover:        true,
		TrustOnFirstUse: true,
		Rules:           RulesDefault,
		Debounce:        150 * time.Millisecond,
		RescanInterval:  10 * time.Minute,
		Targets:         []Target{{Path: "/home/tester/work/mcp/inventory.json", Kind: KindInventory}},
		Log: Log{
			File:       "/home/tester/.local/state/descriptorpin/events.jsonl",
			Stderr:     true,
			Format:     FormatJSON,
			Level:      LevelInfo,
			MaxSizeMB:  50,
			MaxBackups: 5,
		},
		Notify: Notify{
			Desktop: Desktop{Enabled: true, MinSeverity: engine.Medium},
			Webhooks: []Webhook{{
				URL:         "https://hooks.example/x",
				Format:      WebhookStandard,
				SecretEnv:   "DP_WEBHOOK_SECRET",
				MinSeverity: engine.High,
				Timeout:     10 * time.Second,
			}},
		},
		Capture: Capture{Interval: DefaultCaptureInterval, Timeout: DefaultCaptureTimeout},
	}
	if !reflect.DeepEqual(plain(got), want) {
		t.Errorf("Parse(full example):\n got %+v\nwant %+v", plain(got), want)
	}
	if err := got.Validate(); err != nil {
		t.Errorf("Validate(full example): %v", err)
	}
}

func TestParseOverlaysDefaults(t *testing.T) {
	setHome(t)
	tests := []struct {
		name string
		yaml string
		want func(c *Config)
	}{
		{"one key changes one field", "debounce: 1s\n", func(c *Config) { c.Debounce = time.Second }},
		{"nested key keeps its siblings", "log:\n  level: debug\n", func(c *Config) { c.Log.Level = LevelDebug }},
		{"null value keeps the default", "pin:\nlog:\n  level: null\n", func(c *Config) {}},
		{"rescan interval zero disables", "rescan_interval: 0\n", func(c *Config) { c.RescanInterval = 0 }},
		{"quoted keys are keys", "\"discover\": false\n", func(c *Config) { c.Discover = false }},
		{"target kind defaults to auto", "targets:\n  - path: /x/inv.json\n", func(c *Config) {
			c.Targets = []Target{{Path: "/x/inv.json", Kind: KindAuto}}
		}},
		{"webhook defaults", "notify:\n  webhooks:\n    - url: https://h.example/\n", func(c *Config) {
			c.Notify.Webhooks = []Webhook{{URL: "https://h.example/", Format: WebhookStandard, MinSeverity: engine.Medium, Timeout: 10 * time.Second}}
		}},
		{"state_dir moves the default log", "state_dir: /srv/dp\n", func(c *Config) {
			c.StateDir = "/srv/dp"
			c.Log.File = "/srv/dp/events.jsonl"
		}},
		{"explicit log file wins over state_dir", "state_dir: /srv/dp\nlog:\n  file: /var/log/dp.jsonl\n", func(c *Config) {
			c.StateDir = "/srv/dp"
			c.Log.File = "/var/log/dp.jsonl"
		}},
		{"empty log file turns the file off", "log:\n  file: \"\"\n", func(c *Config) { c.Log.File = "" }},
		{"paths are cleaned", "pin: /a/b/../pin.json\n", func(c *Config) { c.Pin = "/a/pin.json" }},
		{"desktop can be disabled", "notify:\n  desktop:\n    enabled: false\n", func(c *Config) { c.Notify.Desktop.Enabled = false }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := Default()
			tt.want(&want)
			got := parseString(t, tt.yaml)
			if !reflect.DeepEqual(plain(got), want) {
				t.Errorf("Parse(%q):\n got %+v\nwant %+v", tt.yaml, plain(got), want)
			}
		})
	}
}

func TestParseEmptyGivesDefaults(t *testing.T) {
	setHome(t)
	for _, in := range []string{"", "\n", "# only a comment\n", "---\n", "~\n", "{}\n"} {
		got := parseString(t, in)
		if want := Default(); !reflect.DeepEqual(plain(got), want) {
			t.Errorf("Parse(%q) = %+v, want the defaults %+v", in, plain(got), want)
		}
	}
	if d := Default(); d.Pin != testHome+"/.config/descriptorpin/pin.json" {
		t.Errorf("Default().Pin = %q with HOME=%s", d.Pin, testHome)
	}
}

func TestParseErrorsHaveLineAndField(t *testing.T) {
	setHome(t)
	tests := []struct {
		name      string
		yaml      string
		wantLine  int
		wantField string
		wantMsg   string // substring of the message
	}{
		{
			name:     "unknown key with line and suggestion",
			yaml:     "pin: /p.json\nstate_dir: /s\ndiscover: true\ntrust_on_first_use: true\nrules: default\nrescan_interval: 10m\ndebounse: 150ms\n",
			wantLine: 7,
			wantMsg:  `unknown key "debounse" (did you mean "debounce"?)`,
		},
		{
			name:      "nested unknown key under log",
			yaml:      "log:\n  stderr: true\n  formt: json\n",
			wantLine:  3,
			wantField: "log",
			wantMsg:   `unknown key "formt"`,
		},
		{
			name:      "unknown key in a webhook",
			yaml:      "notify:\n  webhooks:\n    - url: https://h.example/\n      secret: abc\n",
			wantLine:  4,
			wantField: "notify.webhooks[0]",
			wantMsg:   `unknown key "secret"`,
		},
		{
			name:     "duplicate key",
			yaml:     "debounce: 1s\npin: /p\ndebounce: 2s\n",
			wantLine: 3,
			wantMsg:  `duplicate key "debounce" (first set on line 1)`,
		},
		{
			name:      "duplicate nested key",
			yaml:      "targets:\n  - path: /a\n    path: /b\n",
			wantLine:  3,
			wantField: "targets[0]",
			wantMsg:   `duplicate key "path"`,
		},
		{
			name:      "bad duration",
			yaml:      "pin: /p\ndebounce: soon\n",
			wantLine:  2,
			wantField: "debounce",
			wantMsg:   `invalid duration "soon"`,
		},
		{
			name:      "duration without unit",
			yaml:      "rescan_interval: 600\n",
			wantLine:  1,
			wantField: "rescan_interval",
			wantMsg:   `invalid duration "600"`,
		},
		{
			name:      "bad webhook timeout",
			yaml:      "notify:\n  webhooks:\n    - url: https://h.example/\n      timeout: 10 seconds\n",
			wantLine:  4,
			wantField: "notify.webhooks[0].timeout",
			wantMsg:   "invalid duration",
		},
		{
			name:      "boolean of the wrong type",
			yaml:      "discover: yes\n",
			wantLine:  1,
			wantField: "discover",
			wantMsg:   "must be true or false, not a string",
		},
		{
			name:      "explicitly tagged boolean that is neither",
			yaml:      "discover: !!bool yes\n",
			wantLine:  1,
			wantField: "discover",
			wantMsg:   `must be true or false, not "yes"`,
		},
		{
			name:      "integer of the wrong type",
			yaml:      "log:\n  max_size_mb: 50MB\n",
			wantLine:  2,
			wantField: "log.max_size_mb",
			wantMsg:   "must be a whole number",
		},
		{
			name:      "string given a mapping",
			yaml:      "rules:\n  name: default\n",
			wantLine:  2,
			wantField: "rules",
			wantMsg:   "must be a string, not a mapping",
		},
		{
			name:      "targets not a list",
			yaml:      "targets: /x.json\n",
			wantLine:  1,
			wantField: "targets",
			wantMsg:   "must be a list",
		},
		{
			name:      "target that is not a mapping",
			yaml:      "targets:\n  - /x.json\n",
			wantLine:  2,
			wantField: "targets[0]",
			wantMsg:   "must be a mapping",
		},
		{
			name:     "top level not a mapping",
			yaml:     "- pin\n",
			wantLine: 1,
			wantMsg:  "must be a mapping",
		},
		{
			name:     "multiple documents",
			yaml:     "pin: /p\n---\ndebounce: 1s\n",
			wantLine: 2,
			wantMsg:  "multiple YAML documents",
		},
		{
			name:      "aliases",
			yaml:      "state_dir: &d /s\npin: *d\n",
			wantLine:  2,
			wantField: "pin",
			wantMsg:   "aliases are not supported",
		},
		{
			name:     "syntax error",
			yaml:     "pin: /p\nlog:\n  file: [\n",
			wantLine: 3,
			wantMsg:  "invalid YAML",
		},
		{
			name:      "undefined variable is named",
			yaml:      "pin: /p\nstate_dir: $DP_TEST_UNDEFINED/state\n",
			wantLine:  2,
			wantField: "state_dir",
			wantMsg:   `undefined environment variable "DP_TEST_UNDEFINED"`,
		},
		{
			name:      "bare tilde path is ambiguous",
			yaml:      "pin: /p\nstate_dir: ~\n",
			wantLine:  2,
			wantField: "state_dir",
			wantMsg:   "a bare ~ is YAML null",
		},
		{
			name:      "tilde user",
			yaml:      "pin: ~root/pin.json\n",
			wantLine:  1,
			wantField: "pin",
			wantMsg:   `"~user" paths are not supported`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.yaml))
			if err == nil {
				t.Fatalf("Parse(%q) succeeded, want an error", tt.yaml)
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("Parse error %v (%T) is not a *FieldError", err, err)
			}
			if fe.Line != tt.wantLine || fe.Field != tt.wantField || !strings.Contains(fe.Msg, tt.wantMsg) {
				t.Errorf("Parse error = {Line: %d, Field: %q, Msg: %q}, want {Line: %d, Field: %q, Msg containing %q}",
					fe.Line, fe.Field, fe.Msg, tt.wantLine, tt.wantField, tt.wantMsg)
			}
			if wantPrefix := fmt.Sprintf("line %d: ", tt.wantLine); !strings.HasPrefix(err.Error(), wantPrefix) {
				t.Errorf("error %q does not start with %q", err, wantPrefix)
			}
		})
	}
}

func TestParseReportsEveryError(t *testing.T) {
	_, err := Parse(strings.NewReader("debounse: 1s\nlog:\n  levl: info\n"))
	var lines []int
	for _, e := range unjoin(err) {
		var fe *FieldError
		if errors.As(e, &fe) {
			lines = append(lines, fe.Line)
		}
	}
	if !reflect.DeepEqual(lines, []int{1, 3}) {
		t.Errorf("error lines = %v, want [1 3]; error: %v", lines, err)
	}
}

func TestParseCapsTheErrorCount(t *testing.T) {
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "bogus%d: x\n", i)
	}
	_, err := Parse(strings.NewReader(b.String()))
	errs := unjoin(err)
	if len(errs) != maxErrors+1 || !strings.HasSuffix(err.Error(), "and 80 more errors") {
		t.Errorf("Parse with 100 unknown keys gave %d errors, ending %q", len(errs), errs[len(errs)-1])
	}
}

// unjoin returns the errors joined in err (or err itself).
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func TestParseExpandsPaths(t *testing.T) {
	setHome(t)
	t.Setenv("DP_TEST_ROOT", "/srv/mcp")
	cfg := parseString(t, `pin: ~/pin.json
state_dir: "~"
targets:
  - path: $DP_TEST_ROOT/inv.json
  - path: ${DP_TEST_ROOT}/client/../other.json
    kind: client-config
notify:
  webhooks:
    - url: https://h.example/
      secret_file: ~/.secrets/hook
`)
	checks := []struct{ field, got, want string }{
		{"pin", cfg.Pin, "/home/tester/pin.json"},
		{"state_dir", cfg.StateDir, "/home/tester"},
		{"log.file (follows state_dir)", cfg.Log.File, "/home/tester/events.jsonl"},
		{"targets[0].path", cfg.Targets[0].Path, "/srv/mcp/inv.json"},
		{"targets[1].path", cfg.Targets[1].Path, "/srv/mcp/other.json"},
		{"secret_file", cfg.Notify.Webhooks[0].SecretFile, "/home/tester/.secrets/hook"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.field, c.got, c.want)
		}
	}
}

func TestExpand(t *testing.T) {
	env := map[string]string{"ROOT": "/srv", "EMPTY": "", "TILDE": "~"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	tests := []struct {
		name, in, home, want string
		wantErr              string
	}{
		{name: "plain path unchanged", in: "/a/b", home: "/h", want: "/a/b"},
		{name: "tilde alone", in: "~", home: "/h", want: "/h"},
		{name: "tilde slash", in: "~/x/y", home: "/h", want: "/h/x/y"},
		{name: "dollar var", in: "$ROOT/x", home: "/h", want: "/srv/x"},
		{name: "braced var", in: "${ROOT}x", home: "/h", want: "/srvx"},
		{name: "var after tilde", in: "~/$ROOT", home: "/h", want: "/h//srv"},
		{name: "empty but defined var", in: "/a$EMPTY/b", home: "/h", want: "/a/b"},
		{name: "var values are not re-expanded", in: "$TILDE/x", home: "/h", want: "~/x"},
		{name: "double dollar is a dollar", in: "/a/$$ROOT", home: "/h", want: "/a/$ROOT"},
		{name: "dollar before a non-name is literal", in: `\\host\c$\dir`, home: "/h", want: `\\host\c$\dir`},
		{name: "trailing dollar is literal", in: "/a$", home: "/h", want: "/a$"},
		{name: "tilde inside is literal", in: "/a/~/b", home: "/h", want: "/a/~/b"},
		{name: "undefined var", in: "$NOPE/x", home: "/h", wantErr: `undefined environment variable "NOPE"`},
		{name: "undefined braced var", in: "/x/${NOPE_2}", home: "/h", wantErr: `undefined environment variable "NOPE_2"`},
		{name: "unterminated brace", in: "${ROOT/x", home: "/h", wantErr: "unterminated"},
		{name: "empty braces", in: "${}/x", home: "/h", wantErr: "invalid variable name"},
		{name: "shell default syntax", in: "${ROOT:-/x}", home: "/h", wantErr: "invalid variable name"},
		{name: "tilde user", in: "~bob/x", home: "/h", wantErr: `"~user" paths are not supported`},
		{name: "tilde without home", in: "~/x", home: "", wantErr: "home directory is not known"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := expand(tt.in, lookup, tt.home)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("expand(%q) = %q, %v; want error containing %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("expand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestExpandUndefinedVarIsTyped(t *testing.T) {
	t.Setenv("HOME", testHome)
	_, err := Expand("$DP_TEST_SURELY_UNSET/x")
	var ue *UndefinedVarError
	if !errors.As(err, &ue) || ue.Name != "DP_TEST_SURELY_UNSET" {
		t.Fatalf("Expand error = %v, want *UndefinedVarError naming DP_TEST_SURELY_UNSET", err)
	}
	// Through Parse, the cause survives the *FieldError.
	_, err = Parse(strings.NewReader("pin: ${DP_TEST_SURELY_UNSET}/pin.json\n"))
	if !errors.As(err, &ue) || ue.Name != "DP_TEST_SURELY_UNSET" {
		t.Fatalf("Parse error = %v, want it to wrap *UndefinedVarError", err)
	}
}

func TestDefaultsPerOS(t *testing.T) {
	tests := []struct {
		name    string
		goos    string
		env     map[string]string
		home    string
		want    paths
		wantErr bool
	}{
		{
			name: "linux without XDG variables",
			goos: "linux",
			home: "/home/ann",
			want: paths{
				ConfigFile: "/home/ann/.config/descriptorpin/config.yaml",
				Pin:        "/home/ann/.config/descriptorpin/pin.json",
				StateDir:   "/home/ann/.local/state/descriptorpin",
				LogFile:    "/home/ann/.local/state/descriptorpin/events.jsonl",
			},
		},
		{
			name: "linux with XDG variables",
			goos: "linux",
			env:  map[string]string{"XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/st"},
			home: "/home/ann",
			want: paths{
				ConfigFile: "/cfg/descriptorpin/config.yaml",
				Pin:        "/cfg/descriptorpin/pin.json",
				StateDir:   "/st/descriptorpin",
				LogFile:    "/st/descriptorpin/events.jsonl",
			},
		},
		{
			name: "linux ignores relative XDG variables",
			goos: "linux",
			env:  map[string]string{"XDG_CONFIG_HOME": "cfg", "XDG_STATE_HOME": "./st"},
			home: "/home/ann",
			want: paths{
				ConfigFile: "/home/ann/.config/descriptorpin/config.yaml",
				Pin:        "/home/ann/.config/descriptorpin/pin.json",
				StateDir:   "/home/ann/.local/state/descriptorpin",
				LogFile:    "/home/ann/.local/state/descriptorpin/events.jsonl",
			},
		},
		{
			name: "freebsd uses XDG too",
			goos: "freebsd",
			env:  map[string]string{"XDG_CONFIG_HOME": "/cfg"},
			home: "/usr/home/ann",
			want: paths{
				ConfigFile: "/cfg/descriptorpin/config.yaml",
				Pin:        "/cfg/descriptorpin/pin.json",
				StateDir:   "/usr/home/ann/.local/state/descriptorpin",
				LogFile:    "/usr/home/ann/.local/state/descriptorpin/events.jsonl",
			},
		},
		{
			name: "linux with XDG variables and no home",
			goos: "linux",
			env:  map[string]string{"XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/st"},
			want: paths{
				ConfigFile: "/cfg/descriptorpin/config.yaml",
				Pin:        "/cfg/descriptorpin/pin.json",
				StateDir:   "/st/descriptorpin",
				LogFile:    "/st/descriptorpin/events.jsonl",
			},
		},
		{
			name:    "linux without home or XDG",
			goos:    "linux",
			wantErr: true,
		},
		{
			name: "darwin",
			goos: "darwin",
			env:  map[string]string{"XDG_CONFIG_HOME": "/ignored"},
			home: "/Users/ann",
			want: paths{
				ConfigFile: "/Users/ann/Library/Application Support/DescriptorPin/config.yaml",
				Pin:        "/Users/ann/Library/Application Support/DescriptorPin/pin.json",
				StateDir:   "/Users/ann/Library/Application Support/DescriptorPin/state",
				LogFile:    "/Users/ann/Library/Logs/DescriptorPin/events.jsonl",
			},
		},
		{
			name:    "darwin without home",
			goos:    "darwin",
			wantErr: true,
		},
		{
			name: "windows",
			goos: "windows",
			env:  map[string]string{"APPDATA": `C:\Users\ann\AppData\Roaming`, "LOCALAPPDATA": `D:\Local\`},
			home: `C:\Users\ann`,
			want: paths{
				ConfigFile: `C:\Users\ann\AppData\Roaming\DescriptorPin\config.yaml`,
				Pin:        `C:\Users\ann\AppData\Roaming\DescriptorPin\pin.json`,
				StateDir:   `D:\Local\DescriptorPin`,
				LogFile:    `D:\Local\DescriptorPin\events.jsonl`,
			},
		},
		{
			name: "windows without APPDATA falls back to the profile",
			goos: "windows",
			home: `C:\Users\ann`,
			want: paths{
				ConfigFile: `C:\Users\ann\AppData\Roaming\DescriptorPin\config.yaml`,
				Pin:        `C:\Users\ann\AppData\Roaming\DescriptorPin\pin.json`,
				StateDir:   `C:\Users\ann\AppData\Local\DescriptorPin`,
				LogFile:    `C:\Users\ann\AppData\Local\DescriptorPin\events.jsonl`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := defaultsFor(tt.goos, func(k string) string { return tt.env[k] }, tt.home)
			if (err != nil) != tt.wantErr {
				t.Fatalf("defaultsFor error = %v, want error: %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("defaultsFor(%s):\n got %+v\nwant %+v", tt.goos, got, tt.want)
			}
		})
	}
}

func TestDefaultPath(t *testing.T) {
	setHome(t)
	got, err := DefaultPath()
	if err != nil {
		t.Fatalf("DefaultPath: %v", err)
	}
	if !filepath.IsAbs(got) || filepath.Base(got) != "config.yaml" {
		t.Errorf("DefaultPath() = %q, want an absolute path to config.yaml", got)
	}
}

// validConfig is a config that validates, with the given home-free paths.
func validConfig() Config {
	c := Default()
	c.Pin = "/p/pin.json"
	c.StateDir = "/p/state"
	c.Log.File = "/p/state/events.jsonl"
	c.Targets = []Target{{Path: "/p/inv.json", Kind: KindInventory}}
	c.Notify.Webhooks = []Webhook{{Name: "soc", URL: "https://h.example/x", Format: WebhookSlack,
		SecretEnv: "DP_SECRET", MinSeverity: engine.High, Timeout: 10 * time.Second}}
	return c
}

func TestValidateErrorsNameTheField(t *testing.T) {
	if err := func() error { c := validConfig(); return c.Validate() }(); err != nil {
		t.Fatalf("validConfig does not validate: %v", err)
	}
	tests := []struct {
		name      string
		mutate    func(c *Config)
		wantField string
		wantMsg   string
	}{
		{"pin missing", func(c *Config) { c.Pin = "" }, "pin", "must be set"},
		{"pin relative", func(c *Config) { c.Pin = "pin.json" }, "pin", `must be an absolute path (got "pin.json")`},
		{"state_dir missing", func(c *Config) { c.StateDir = "" }, "state_dir", "must be set"},
		{"rules unknown", func(c *Config) { c.Rules = "strict" }, "rules", "must be one of default, reference"},
		{"debounce too short", func(c *Config) { c.Debounce = 5 * time.Millisecond }, "debounce", "between 10ms and 1m0s"},
		{"debounce too long", func(c *Config) { c.Debounce = 2 * time.Minute }, "debounce", "between 10ms and 1m0s"},
		{"rescan interval too short", func(c *Config) { c.RescanInterval = 500 * time.Millisecond }, "rescan_interval", "at least 1s"},
		{"rescan interval negative", func(c *Config) { c.RescanInterval = -time.Second }, "rescan_interval", "at least 1s"},
		{"target without path", func(c *Config) { c.Targets[0].Path = "" }, "targets[0].path", "must be set"},
		{"target relative path", func(c *Config) { c.Targets[0].Path = "inv.json" }, "targets[0].path", "absolute"},
		{"target kind unknown", func(c *Config) { c.Targets[0].Kind = "pin" }, "targets[0].kind", `must be one of inventory, client-config, auto (got "pin")`},
		{"duplicate targets after cleaning", func(c *Config) {
			c.Targets = append(c.Targets, Target{Path: "/p/x/../inv.json", Kind: KindAuto})
		}, "targets[1].path", "same file as targets[0]"},
		{"log file relative", func(c *Config) { c.Log.File = "events.jsonl" }, "log.file", "absolute"},
		{"no log output", func(c *Config) { c.Log.File, c.Log.Stderr = "", false }, "log", "no event output"},
		{"log format", func(c *Config) { c.Log.Format = "text" }, "log.format", "must be one of json, console"},
		{"log level", func(c *Config) { c.Log.Level = "trace" }, "log.level", "must be one of debug, info, warn, error"},
		{"max size zero", func(c *Config) { c.Log.MaxSizeMB = 0 }, "log.max_size_mb", "between 1 and 10000"},
		{"max size huge", func(c *Config) { c.Log.MaxSizeMB = 10001 }, "log.max_size_mb", "between 1 and 10000"},
		{"max backups negative", func(c *Config) { c.Log.MaxBackups = -1 }, "log.max_backups", "between 0 and 1000"},
		{"desktop severity", func(c *Config) { c.Notify.Desktop.MinSeverity = 9 }, "notify.desktop.min_severity", "must be one of low, medium, high, critical"},
		{"webhook url missing", func(c *Config) { c.Notify.Webhooks[0].URL = "" }, "notify.webhooks[0].url", "must be set"},
		{"webhook url not http", func(c *Config) { c.Notify.Webhooks[0].URL = "ftp://h.example/x" }, "notify.webhooks[0].url", "must be an http or https URL (got ftp://h.example)"},
		{"webhook url without host", func(c *Config) { c.Notify.Webhooks[0].URL = "https:///x" }, "notify.webhooks[0].url", "must include a host"},
		{"webhook url relative", func(c *Config) { c.Notify.Webhooks[0].URL = "hooks.example/x" }, "notify.webhooks[0].url", "must be an http or https URL (got <redacted>)"},
		{"webhook with two secrets", func(c *Config) { c.Notify.Webhooks[0].SecretFile = "/s" }, "notify.webhooks[0]", "at most one of secret_file and secret_env"},
		{"webhook secret file relative", func(c *Config) {
			c.Notify.Webhooks[0].SecretEnv, c.Notify.Webhooks[0].SecretFile = "", "secret"
		}, "notify.webhooks[0].secret_file", "absolute"},
		{"webhook secret env not a name", func(c *Config) { c.Notify.Webhooks[0].SecretEnv = "DP-SECRET" }, "notify.webhooks[0].secret_env", "environment variable name"},
		{"webhook format", func(c *Config) { c.Notify.Webhooks[0].Format = "discord" }, "notify.webhooks[0].format", "must be one of standard, slack, teams"},
		{"webhook severity", func(c *Config) { c.Notify.Webhooks[0].MinSeverity = 0 }, "notify.webhooks[0].min_severity", "must be one of low, medium, high, critical"},
		{"webhook timeout short", func(c *Config) { c.Notify.Webhooks[0].Timeout = 0 }, "notify.webhooks[0].timeout", "between 1s and 5m0s"},
		{"webhook timeout long", func(c *Config) { c.Notify.Webhooks[0].Timeout = time.Hour }, "notify.webhooks[0].timeout", "between 1s and 5m0s"},
		{"webhook name unsafe", func(c *Config) { c.Notify.Webhooks[0].Name = "../soc" }, "notify.webhooks[0].name", "letters, digits"},
		{"webhook names unique", func(c *Config) {
			c.Notify.Webhooks = append(c.Notify.Webhooks, c.Notify.Webhooks[0])
		}, "notify.webhooks[1].name", `duplicate webhook name "soc"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := validConfig()
			tt.mutate(&c)
			err := c.Validate()
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("Validate() = %v, want a *FieldError", err)
			}
			if fe.Field != tt.wantField || !strings.Contains(fe.Msg, tt.wantMsg) {
				t.Errorf("Validate() = {Field: %q, Msg: %q}, want {Field: %q, Msg containing %q}", fe.Field, fe.Msg, tt.wantField, tt.wantMsg)
			}
			if want := tt.wantField + ": "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with %q", err, want)
			}
		})
	}
}

func TestValidateErrorMessageFormat(t *testing.T) {
	c := validConfig()
	c.Targets = append(c.Targets, Target{Path: "/p/b.json", Kind: "bogus"})
	err := c.Validate()
	want := `targets[1].kind: must be one of inventory, client-config, auto (got "bogus")`
	if err == nil || err.Error() != want {
		t.Errorf("Validate() = %v, want %s", err, want)
	}
}

func TestValidateErrorsCarryParseLines(t *testing.T) {
	setHome(t)
	cfg := parseString(t, `pin: /p/pin.json
targets:
  - path: /p/a.json
  - path: /p/b.json
    kind: bogus
  - path: /p/a.json
debounce: 1h
`)
	err := cfg.Validate()
	got := map[string]int{}
	for _, e := range unjoin(err) {
		var fe *FieldError
		if errors.As(e, &fe) {
			got[fe.Field] = fe.Line
		}
	}
	want := map[string]int{"targets[1].kind": 5, "targets[2].path": 6, "debounce": 7}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Validate error lines = %v, want %v\nerror: %v", got, want, err)
	}
	if !strings.Contains(err.Error(), "line 5: targets[1].kind: must be one of inventory, client-config, auto") {
		t.Errorf("error %q lacks the line-prefixed kind error", err)
	}
}

func TestFieldErrorFormat(t *testing.T) {
	tests := []struct {
		e    FieldError
		want string
	}{
		{FieldError{Field: "pin", Msg: "must be set"}, "pin: must be set"},
		{FieldError{Line: 3, Field: "pin", Msg: "must be set"}, "line 3: pin: must be set"},
		{FieldError{File: "c.yaml", Line: 7, Msg: `unknown key "x"`}, `c.yaml:7: unknown key "x"`},
		{FieldError{File: "c.yaml", Field: "pin", Msg: "must be set"}, "c.yaml: pin: must be set"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoad(t *testing.T) {
	setHome(t)
	t.Run("valid file", func(t *testing.T) {
		p := writeFile(t, "config.yaml", fullExample)
		cfg, err := Load(p)
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		if cfg.Debounce != 150*time.Millisecond || cfg.source != p {
			t.Errorf("Load gave %+v", cfg)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "nope.yaml")
		_, err := Load(p)
		if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), p) {
			t.Errorf("Load(missing) = %v, want fs.ErrNotExist naming %s", err, p)
		}
	})
	t.Run("oversized file", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "big.yaml")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		// Sparse: the size check must happen before anything is read.
		if err := f.Truncate(MaxFileSize + 1); err != nil {
			t.Fatal(err)
		}
		f.Close()
		_, err = Load(p)
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), p) {
			t.Errorf("Load(oversized) = %v, want ErrTooLarge naming %s", err, p)
		}
	})
	t.Run("directory", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Load(dir) = %v, want a not-a-regular-file error", err)
		}
	})
	t.Run("parse error names the file and line", func(t *testing.T) {
		p := writeFile(t, "config.yaml", "pin: /p\nstate_dir: /s\ndiscover: true\n\n# comment\nrules: default\ndebounse: 150ms\n")
		_, err := Load(p)
		want := p + `:7: unknown key "debounse"`
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Load = %v, want an error starting %q", err, want)
		}
	})
	t.Run("validation error names the file and line", func(t *testing.T) {
		p := writeFile(t, "config.yaml", "pin: /p\nlog:\n  level: loud\n")
		_, err := Load(p)
		want := p + `:3: log.level: must be one of debug, info, warn, error (got "loud")`
		if err == nil || err.Error() != want {
			t.Errorf("Load = %v, want %s", err, want)
		}
	})
	t.Run("revalidation keeps the file name", func(t *testing.T) {
		p := writeFile(t, "config.yaml", "pin: /p\ndebounce: 20ms\n")
		cfg, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Debounce = 0 // a flag overriding the file, say
		if err := cfg.Validate(); err == nil || !strings.HasPrefix(err.Error(), p+":2: debounce: ") {
			t.Errorf("Validate after Load = %v, want it to name %s:2", err, p)
		}
	})
}

func TestParseRejectsOversizedInput(t *testing.T) {
	big := strings.NewReader("# " + strings.Repeat("x", MaxFileSize) + "\n")
	if _, err := Parse(big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Parse(oversized) = %v, want ErrTooLarge", err)
	}
}

func TestWebhookSecretsStayOutOfErrors(t *testing.T) {
	setHome(t)
	const secret = "s3cr3tT0ken"
	urls := []string{
		"ftp://hooks.example/services/" + secret,
		"https://user:" + secret + "@/x",
		"https:///" + secret,
		"https://hooks.example/%zz" + secret,
		"http://[::1" + secret,
		"hooks.example/" + secret,
		"mailto:" + secret + "@example.com",
		"https://hooks.example/x?token=" + secret + "\x7f",
	}
	for _, u := range urls {
		cfg := validConfig()
		cfg.Notify.Webhooks[0].URL = u
		err := cfg.Validate()
		if err == nil {
			t.Errorf("Validate accepted webhook URL %q", u)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("Validate error leaks the URL's secret: %v", err)
		}
	}
	// Errors elsewhere in a webhook entry, and a URL used as a key by mistake.
	inputs := []string{
		"notify:\n  webhooks:\n    - url: https://hooks.example/" + secret + "\n      timeout: 0s\n",
		"notify:\n  webhooks:\n    - url: https://hooks.example/" + secret + "\n      format: carrier-pigeon\n",
		"notify:\n  webhooks:\n    - https://hooks.example/" + secret + ": x\n",
		"notify:\n  webhooks:\n    - https://hooks.example/" + secret + "\n",
		"notify:\n  webhooks:\n    - url:\n        https://hooks.example/" + secret + ": x\n",
	}
	for _, in := range inputs {
		cfg, err := Parse(strings.NewReader(in))
		if err == nil {
			err = cfg.Validate()
		}
		if err == nil {
			t.Errorf("config %q was accepted", in)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error leaks the URL's secret: %v", err)
		}
	}
	// Printing a config does not print webhook URLs either.
	cfg := validConfig()
	cfg.Notify.Webhooks[0].URL = "https://hooks.example/" + secret
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		if s := fmt.Sprintf(verb, cfg); strings.Contains(s, secret) {
			t.Errorf("fmt %s of a Config leaks the webhook URL: %s", verb, s)
		}
	}
}

func TestExampleParsesAndValidates(t *testing.T) {
	setHome(t)
	cfg, err := Parse(strings.NewReader(Example))
	if err != nil {
		t.Fatalf("Parse(Example): %v", err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("Validate(Example): %v", err)
	}
	// The example documents the defaults: it must not change any.
	if want := Default(); !reflect.DeepEqual(plain(cfg), want) {
		t.Errorf("Example differs from the defaults:\n got %+v\nwant %+v", plain(cfg), want)
	}
	if p := writeFile(t, "config.yaml", Example); true {
		if _, err := Load(p); err != nil {
			t.Errorf("Load(Example): %v", err)
		}
	}
}

func TestSuggest(t *testing.T) {
	fields := []field{{key: "debounce"}, {key: "pin"}, {key: "rescan_interval"}}
	tests := map[string]string{"debounse": "debounce", "Debounce": "debounce", "pn": "pin", "xyz": "", "rescan": ""}
	for in, want := range tests {
		if got := suggest(in, fields); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	seeds := []string{
		"", fullExample, Example, "---\n", "~", "{}", "[]", "pin: ~\n",
		"a: &x [*x]\n", "debounce: 1s\ndebounce: 2s\n", "targets:\n  - path: $X\n",
		"pin: /p\n---\npin: /q\n", "log: {file: ${HOME}/x, level: debug}\n",
		"notify:\n  webhooks:\n    - {url: 'http://[::1', timeout: -1s}\n",
		"? [a, b]\n: c\n", "<<: {pin: /x}\n", "pin: !!binary aGVsbG8=\n",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		cfg, err := Parse(strings.NewReader(in))
		if err != nil {
			_ = err.Error()
			return
		}
		if err := cfg.Validate(); err != nil {
			_ = err.Error()
		}
		_ = fmt.Sprintf("%v %#v", cfg, cfg)
	})
}

func TestCaptureSection(t *testing.T) {
	cfg, err := Parse(strings.NewReader("capture:\n  enabled: true\n  interval: 30m\n  allow_exec: true\n  configs:\n    - path: /home/u/.cursor/mcp.json\n      output: /home/u/inv.json\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if !cfg.Capture.Enabled || !cfg.Capture.AllowExec || cfg.Capture.Interval != 30*time.Minute || cfg.Capture.Timeout != DefaultCaptureTimeout ||
		len(cfg.Capture.Configs) != 1 || cfg.Capture.Configs[0].Output != "/home/u/inv.json" {
		t.Fatalf("%+v", cfg.Capture)
	}
	bad, err := Parse(strings.NewReader("capture:\n  enabled: true\n  interval: 10s\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = bad.Validate()
	if err == nil || !strings.Contains(err.Error(), "capture.interval") || !strings.Contains(err.Error(), "capture.configs") {
		t.Fatalf("got %v", err)
	}
	if _, err := Parse(strings.NewReader("capture:\n  enable: true\n")); err == nil || !strings.Contains(err.Error(), "unknown key") {
		t.Fatalf("unknown key under capture: %v", err)
	}
}

func TestCaptureIdentifyAs(t *testing.T) {
	base := "capture:\n  enabled: true\n  configs:\n    - path: /home/u/.cursor/mcp.json\n  identify_as: "
	cfg, err := Parse(strings.NewReader(base + "[claude-code, cursor-vscode]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := cfg.Capture.IdentifyAs; len(got) != 2 || got[0] != "claude-code" || got[1] != "cursor-vscode" {
		t.Fatalf("identify_as = %v", got)
	}
	for in, want := range map[string]string{
		"[descriptorpin]":     "already uses",
		"[a, a]":              "listed twice",
		`[""]`:                "client name",
		"[\"bad\\u0007\"]":    "printable ASCII",
		"[1,2,3,4,5,6,7,8,9]": "at most 8",
	} {
		c, err := Parse(strings.NewReader(base + in + "\n"))
		if err == nil {
			err = c.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "capture.identify_as") {
			t.Errorf("identify_as %s: err %v, want %q", in, err, want)
		}
	}
}
