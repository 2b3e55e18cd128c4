package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/redact"
)

// Limits enforced by Validate.
const (
	MinDebounce       = 10 * time.Millisecond
	MaxDebounce       = time.Minute
	MinRescanInterval = time.Second // or 0, which disables rescans
	MinWebhookTimeout = time.Second
	MaxWebhookTimeout = 5 * time.Minute
	MaxLogSizeMB      = 10000
	MaxLogBackups     = 1000
)

// webhookNameRE keeps webhook names safe as file names and event values.
var webhookNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Validate checks every field and returns a *FieldError for each problem
// (joined with errors.Join when there are several), naming the field and,
// for a config from Parse or Load, its line. It does not change c: Parse
// fills in per-item defaults (a target's kind, a webhook's format,
// min_severity and timeout), so a Config built in code must set them.
func (c *Config) Validate() error {
	v := &validator{c: c}

	v.absPath("pin", c.Pin, true)
	v.absPath("state_dir", c.StateDir, true)
	oneOf(v, "rules", c.Rules, ruleSets)
	if c.Debounce < MinDebounce || c.Debounce > MaxDebounce {
		v.fail("debounce", fmt.Sprintf("must be between %v and %v (got %v)", MinDebounce, MaxDebounce, c.Debounce))
	}
	if c.RescanInterval != 0 && c.RescanInterval < MinRescanInterval {
		v.fail("rescan_interval", fmt.Sprintf("must be 0 (disabled) or at least %v (got %v)", MinRescanInterval, c.RescanInterval))
	}

	seen := make(map[string]int, len(c.Targets))
	for i, t := range c.Targets {
		f := fmt.Sprintf("targets[%d]", i)
		if v.absPath(f+".path", t.Path, true) {
			key := pathKey(t.Path)
			if j, dup := seen[key]; dup {
				v.fail(f+".path", fmt.Sprintf("duplicate target %s (same file as targets[%d])", quote(t.Path), j))
			} else {
				seen[key] = i
			}
		}
		oneOf(v, f+".kind", t.Kind, targetKinds)
	}

	l := c.Log
	v.absPath("log.file", l.File, false)
	if l.File == "" && !l.Stderr {
		v.fail("log", "no event output: set log.file or enable log.stderr")
	}
	oneOf(v, "log.format", l.Format, logFormats)
	oneOf(v, "log.level", l.Level, logLevels)
	if l.MaxSizeMB < 1 || l.MaxSizeMB > MaxLogSizeMB {
		v.fail("log.max_size_mb", fmt.Sprintf("must be between 1 and %d (got %d)", MaxLogSizeMB, l.MaxSizeMB))
	}
	if l.MaxBackups < 0 || l.MaxBackups > MaxLogBackups {
		v.fail("log.max_backups", fmt.Sprintf("must be between 0 and %d (got %d)", MaxLogBackups, l.MaxBackups))
	}

	v.severity("notify.desktop.min_severity", c.Notify.Desktop.MinSeverity)
	names := make(map[string]int, len(c.Notify.Webhooks))
	for i, w := range c.Notify.Webhooks {
		f := fmt.Sprintf("notify.webhooks[%d]", i)
		switch {
		case w.Name == "":
		case !webhookNameRE.MatchString(w.Name):
			v.fail(f+".name", "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit")
		default:
			if j, dup := names[w.Name]; dup {
				v.fail(f+".name", fmt.Sprintf("duplicate webhook name %q (also notify.webhooks[%d])", w.Name, j))
			} else {
				names[w.Name] = i
			}
		}
		v.webhookURL(f+".url", w.URL)
		oneOf(v, f+".format", w.Format, webhookFormats)
		if w.SecretFile != "" && w.SecretEnv != "" {
			v.fail(f, "set at most one of secret_file and secret_env")
		}
		v.absPath(f+".secret_file", w.SecretFile, false)
		if w.SecretEnv != "" && !isEnvName(w.SecretEnv) {
			v.fail(f+".secret_env", "must be an environment variable name (letters, digits and '_', not starting with a digit)")
		}
		v.severity(f+".min_severity", w.MinSeverity)
		if w.Timeout < MinWebhookTimeout || w.Timeout > MaxWebhookTimeout {
			v.fail(f+".timeout", fmt.Sprintf("must be between %v and %v (got %v)", MinWebhookTimeout, MaxWebhookTimeout, w.Timeout))
		}
	}
	if cp := c.Capture; cp.Enabled {
		if cp.Interval < MinCaptureInterval || cp.Interval > MaxCaptureInterval {
			v.fail("capture.interval", fmt.Sprintf("must be between %v and %v (got %v)", MinCaptureInterval, MaxCaptureInterval, cp.Interval))
		}
		if cp.Timeout < time.Second || cp.Timeout > 5*time.Minute {
			v.fail("capture.timeout", fmt.Sprintf("must be between 1s and 5m (got %v)", cp.Timeout))
		}
		if len(cp.Configs) == 0 {
			v.fail("capture.configs", "capture is enabled but lists no client config (discovered configs are never captured unattended)")
		}
		if len(cp.IdentifyAs) > MaxIdentities {
			v.fail("capture.identify_as", fmt.Sprintf("lists %d names; at most %d (each is one more launch of every server)", len(cp.IdentifyAs), MaxIdentities))
		}
		seen := map[string]bool{}
		for i, id := range cp.IdentifyAs {
			f := fmt.Sprintf("capture.identify_as[%d]", i)
			switch {
			case strings.TrimSpace(id) != id || id == "":
				v.fail(f, "must be a client name, without leading or trailing spaces")
			case len(id) > 64 || strings.IndexFunc(id, func(r rune) bool { return r < 0x21 && r != ' ' || r > 0x7e }) >= 0:
				v.fail(f, "must be at most 64 printable ASCII characters (a clientInfo name such as claude-code or cursor-vscode)")
			case id == "descriptorpin":
				v.fail(f, "\"descriptorpin\" is the name every capture already uses")
			case seen[id]:
				v.fail(f, fmt.Sprintf("%q is listed twice", id))
			}
			seen[id] = true
		}
		for i, cc := range cp.Configs {
			f := fmt.Sprintf("capture.configs[%d]", i)
			v.absPath(f+".path", cc.Path, true)
			v.absPath(f+".output", cc.Output, false)
		}
	}
	return joinErrs(v.errs)
}

// ValidateWatch is what running the service needs beyond Validate:
// something to watch. Commands that only read the config (notify test,
// status) do not need it, so it is not part of Validate.
func (c *Config) ValidateWatch() error {
	if !c.Discover && len(c.Targets) == 0 {
		v := &validator{c: c}
		v.fail("targets", "nothing to watch: discover is false and no targets are listed")
		return v.errs[0]
	}
	return nil
}

type validator struct {
	c    *Config
	errs []*FieldError
}

func (v *validator) fail(field, msg string) {
	v.errs = append(v.errs, &FieldError{File: v.c.source, Line: v.c.lineOf(field), Field: field, Msg: msg})
}

// absPath checks a path field; ok reports that it is set and absolute.
func (v *validator) absPath(field, p string, required bool) (ok bool) {
	switch {
	case p == "":
		if required {
			v.fail(field, "must be set")
		}
		return false
	case !filepath.IsAbs(p):
		v.fail(field, fmt.Sprintf("must be an absolute path (got %s)", quote(p)))
		return false
	}
	return true
}

// webhookURL checks a webhook URL without ever echoing more than its
// scheme and host.
func (v *validator) webhookURL(field, raw string) {
	if raw == "" {
		v.fail(field, "must be set")
		return
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		// url.Parse errors quote the whole URL: do not wrap them.
		v.fail(field, "is not a valid URL")
	case u.Scheme != "http" && u.Scheme != "https":
		v.fail(field, fmt.Sprintf("must be an http or https URL (got %s)", redact.Endpoint(raw)))
	case u.Hostname() == "":
		v.fail(field, fmt.Sprintf("must include a host (got %s)", redact.Endpoint(raw)))
	}
}

// oneOf checks that got is one of the allowed values.
// severity checks that s is one of the severities (a Config built in code
// may hold any number).
func (v *validator) severity(field string, s engine.Severity) {
	if s < engine.Low || s > engine.Critical {
		v.fail(field, severityMsg(s.String()))
	}
}

func oneOf[T ~string](v *validator, field string, got T, allowed []T) {
	for _, a := range allowed {
		if got == a {
			return
		}
	}
	words := make([]string, len(allowed))
	for i, a := range allowed {
		words[i] = string(a)
	}
	v.fail(field, fmt.Sprintf("must be one of %s (got %s)", strings.Join(words, ", "), quote(string(got))))
}

// pathKey is the identity of a path for duplicate detection: cleaned, and
// case-folded where file systems usually ignore case.
func pathKey(p string) string {
	p = filepath.Clean(p)
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		p = strings.ToLower(p)
	}
	return p
}

// lineOf returns the line of field, or of its nearest enclosing field that
// has one, or 0.
func (c *Config) lineOf(field string) int {
	for field != "" {
		if l, ok := c.lines[field]; ok {
			return l
		}
		if strings.HasSuffix(field, "]") {
			field = field[:strings.LastIndexByte(field, '[')]
			continue
		}
		i := strings.LastIndexByte(field, '.')
		if i < 0 {
			return 0
		}
		field = field[:i]
	}
	return 0
}
