// Package config owns the configuration file of the DescriptorPin service
// (descriptorpin watch): its defaults, a strict parser, validation and the
// per-OS default locations.
//
// The lifecycle is Default → Parse → Validate:
//
//	cfg, err := config.Parse(r) // starts from Default() and overlays the YAML
//	if err == nil {
//		err = cfg.Validate()
//	}
//
// Load does the three steps for a file on disk and names the file in its
// errors. Parse is strict: unknown keys, duplicate keys, aliases, several
// YAML documents and values of the wrong type are errors. Every error about
// a place in the file is a *FieldError carrying the field path and the line;
// when there are several, they are joined with errors.Join, so errors.As
// finds the first.
//
// Path fields (pin, state_dir, targets[].path, log.file and
// notify.webhooks[].secret_file) are expanded with Expand when parsed (so
// "~/x", "$VAR/x" and "${VAR}/x" work) and then cleaned. Load takes a
// path that is still relative as relative to the config file's directory;
// Parse, with no file, leaves it relative and Validate refuses it.
//
// Errors never carry secret values: a webhook URL is shown as scheme://host
// only (see redact.Endpoint), and secrets themselves are never in this file (a
// webhook names a secret_file or a secret_env, never the secret).
//
// Of the module, this package imports only the engine's pure packages (the
// one redaction policy and the shared domain types).
package config

import (
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/redact"
)

// Example is a commented starter config file, suitable for writing to
// DefaultPath() on installation. It parses and validates on every OS.
//
//go:embed example.yaml
var Example string

// MaxFileSize is the largest config file Load and Parse accept, in bytes.
const MaxFileSize = 1 << 20

// TargetKind says how a watched target file is read: the engine's one
// target-kind type.
type TargetKind = engine.TargetKind

// Target kinds.
const (
	KindAuto         = engine.KindAuto         // decided from the file's content (the default)
	KindInventory    = engine.KindInventory    // a DescriptorPin inventory
	KindClientConfig = engine.KindClientConfig // an MCP client config (Claude, Cursor, VS Code, ...)
)

// RuleSet selects the detector rules.
type RuleSet string

// Rule sets.
const (
	RulesDefault   RuleSet = "default"   // this project's rules
	RulesReference RuleSet = "reference" // the original tool's rules, for compatibility
)

// LogFormat is the format of the event log.
type LogFormat string

// Log formats.
const (
	FormatJSON    LogFormat = "json"
	FormatConsole LogFormat = "console"
)

// LogLevel is the lowest level written to the event log.
type LogLevel string

// Log levels.
const (
	LevelDebug LogLevel = "debug"
	LevelInfo  LogLevel = "info"
	LevelWarn  LogLevel = "warn"
	LevelError LogLevel = "error"
)

// WebhookFormat is the body format of a webhook delivery.
type WebhookFormat string

// Webhook formats.
const (
	WebhookStandard WebhookFormat = "standard"
	WebhookSlack    WebhookFormat = "slack"
	WebhookTeams    WebhookFormat = "teams"
)

// Allowed values, in the order error messages list them.
var (
	targetKinds    = []TargetKind{KindInventory, KindClientConfig, KindAuto}
	ruleSets       = []RuleSet{RulesDefault, RulesReference}
	logFormats     = []LogFormat{FormatJSON, FormatConsole}
	logLevels      = []LogLevel{LevelDebug, LevelInfo, LevelWarn, LevelError}
	webhookFormats = []WebhookFormat{WebhookStandard, WebhookSlack, WebhookTeams}
)

// Default values that do not depend on the OS.
const (
	DefaultDebounce       = 150 * time.Millisecond
	DefaultRescanInterval = 10 * time.Minute
	DefaultMaxSizeMB      = 50
	DefaultMaxBackups     = 5
	DefaultWebhookTimeout = 10 * time.Second
	// DefaultLogFileName is the event log's file name inside state_dir when
	// log.file is not set.
	DefaultLogFileName = "events.jsonl"
)

// Config is the service configuration. Build one with Default, Parse or
// Load; check it with Validate.
type Config struct {
	// Pin is the pin file the service scans against (key "pin").
	Pin string
	// StateDir holds the service's state: open findings, webhook spool
	// (key "state_dir").
	StateDir string
	// Discover also watches every MCP client config found on the host
	// (key "discover").
	Discover bool
	// TrustOnFirstUse pins the current state when no pin exists at start
	// (key "trust_on_first_use").
	TrustOnFirstUse bool
	// Rules selects the detector rules (key "rules").
	Rules RuleSet
	// Debounce is how long a burst of file events is coalesced (key
	// "debounce", 10ms to 1m).
	Debounce time.Duration
	// RescanInterval is the safety-net rescan period; 0 disables it (key
	// "rescan_interval").
	RescanInterval time.Duration
	// Targets are extra files to watch (key "targets").
	Targets []Target
	// Log configures the JSON event log (key "log").
	Log Log
	// Notify configures notification sinks (key "notify").
	Notify Notify
	// Capture has the service capture inventories over MCP on a schedule
	// (key "capture"); off by default.
	Capture Capture

	// source is the file the config was loaded from ("" for Parse), and
	// lines maps field paths ("targets[1].kind") to the line that set
	// them; both only decorate errors.
	source string
	lines  map[string]int
}

// Target is one file to watch.
type Target struct {
	Path string     // absolute, expanded and cleaned (key "path")
	Kind TargetKind // key "kind"; Parse defaults it to KindAuto
}

// Log configures the event log.
type Log struct {
	// File is the JSON-lines event log; "" disables the file log. When the
	// config file sets state_dir but not log.file, Parse puts it at
	// <state_dir>/events.jsonl.
	File       string
	Stderr     bool      // also write events to stderr (key "stderr")
	Format     LogFormat // key "format"
	Level      LogLevel  // key "level"
	MaxSizeMB  int       // rotate the file at this size (key "max_size_mb", 1 to 10000)
	MaxBackups int       // rotated files kept (key "max_backups", 0 to 1000)
}

// Capture configures scheduled inventory capture. Capturing a stdio
// server runs a command from a client config, unattended: it is off by
// default, needs allow_exec for stdio servers, and the service runs only
// commands whose launch config matches the pin.
type Capture struct {
	Enabled   bool            // key "enabled"
	Interval  time.Duration   // key "interval", 1m to 24h
	Timeout   time.Duration   // key "timeout": per server, 1s to 5m
	AllowExec bool            // key "allow_exec"
	Configs   []CaptureConfig // key "configs"
	// IdentifyAs (key "identify_as") lists the clientInfo names each
	// server is also captured as, besides "descriptorpin": a server that
	// shows an auditor a clean tool list and a real client another is a
	// BAIT-AND-SWITCH finding. Up to MaxIdentities names.
	IdentifyAs []string
}

// CaptureConfig is one client config to capture and the inventory to write.
type CaptureConfig struct {
	Path   string // key "path": the client config
	Output string // key "output": the inventory; default <state_dir>/inventories/<name>-<hash>.json
}

// Capture defaults and limits.
const (
	DefaultCaptureInterval = time.Hour
	DefaultCaptureTimeout  = 30 * time.Second
	MinCaptureInterval     = time.Minute
	MaxCaptureInterval     = 24 * time.Hour
	// MaxIdentities caps capture.identify_as: each name is one more launch
	// of every captured server.
	MaxIdentities = 8
)

// Notify configures notification sinks.
type Notify struct {
	Desktop  Desktop   // key "desktop"
	Webhooks []Webhook // key "webhooks"
}

// Desktop configures desktop notifications.
type Desktop struct {
	Enabled     bool            // key "enabled"
	MinSeverity engine.Severity // key "min_severity"
}

// Webhook is one webhook sink. Its String and GoString methods redact the
// URL, which may embed a token, so printing a Config with %v or %#v does
// not leak it.
type Webhook struct {
	// Name identifies the webhook in events and its spool directory
	// (optional; letters, digits, '.', '_' and '-'; unique).
	Name string
	// URL is the http or https endpoint. Treat it as a secret.
	URL    string
	Format WebhookFormat // key "format"; Parse defaults it to WebhookStandard
	// SecretFile and SecretEnv name where the signing secret is read from
	// (a file path or an environment variable name); at most one is set.
	SecretFile  string
	SecretEnv   string
	MinSeverity engine.Severity // key "min_severity"; Parse defaults it to engine.Medium
	Timeout     time.Duration   // key "timeout", 1s to 5m; Parse defaults it to 10s
}

// String describes the webhook without its secret parts.
func (w Webhook) String() string {
	if w.Name != "" {
		return fmt.Sprintf("webhook %q (%s)", w.Name, redact.Endpoint(w.URL))
	}
	return "webhook " + redact.Endpoint(w.URL)
}

// GoString is String, so that %#v does not print the URL either.
func (w Webhook) GoString() string { return w.String() }

// FieldError is an error about one field of the config. Parse, Validate and
// Load return them (joined with errors.Join when there are several).
type FieldError struct {
	File  string // the config file, when known (set by Load)
	Line  int    // 1-based line in the file; 0 when unknown
	Field string // field path such as "targets[1].kind" (indexes from 0); "" for the document itself
	Msg   string // what is wrong, never containing a secret
	Err   error  // the cause, if any (for example an *UndefinedVarError)
}

// Error formats the error as "file:line: field: msg", leaving out the parts
// that are not known ("line 7: …" when there is no file).
func (e *FieldError) Error() string {
	var b strings.Builder
	switch {
	case e.File != "" && e.Line > 0:
		fmt.Fprintf(&b, "%s:%d: ", e.File, e.Line)
	case e.File != "":
		b.WriteString(e.File + ": ")
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the cause.
func (e *FieldError) Unwrap() error { return e.Err }

// Default returns the configuration used for every key the config file does
// not set. Its paths are the per-OS defaults (see DefaultPath); when the
// home directory cannot be determined, the paths it cannot compute are
// empty and Validate reports them.
func Default() Config {
	p, _ := hostDefaults()
	return Config{
		Pin:             p.Pin,
		StateDir:        p.StateDir,
		Discover:        true,
		TrustOnFirstUse: true,
		Rules:           RulesDefault,
		Debounce:        DefaultDebounce,
		RescanInterval:  DefaultRescanInterval,
		Log: Log{
			File:       p.LogFile,
			Stderr:     true,
			Format:     FormatJSON,
			Level:      LevelInfo,
			MaxSizeMB:  DefaultMaxSizeMB,
			MaxBackups: DefaultMaxBackups,
		},
		Notify: Notify{
			Desktop: Desktop{Enabled: true, MinSeverity: engine.Medium},
		},
		Capture: Capture{Interval: DefaultCaptureInterval, Timeout: DefaultCaptureTimeout},
	}
}

// defaultWebhook is the starting value of each webhook list item.
func defaultWebhook() Webhook {
	return Webhook{
		Format:      WebhookStandard,
		MinSeverity: engine.Medium,
		Timeout:     DefaultWebhookTimeout,
	}
}
