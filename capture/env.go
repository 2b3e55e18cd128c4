package capture

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// InheritedEnv lists the variables of the caller's environment a stdio
// server is given, per OS: the set the official TypeScript SDK's stdio
// client passes (Claude Desktop and most clients launch servers through
// it), itself modelled on what sudo keeps. Nothing else of the caller's
// environment reaches a server: a token exported in the shell that runs
// descriptorpin is not handed to a third-party program.
func InheritedEnv(goos string) []string {
	if goos == "windows" {
		return []string{"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE",
			"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES"}
	}
	return []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}
}

// Lookup reads one variable of the caller's environment; ok is false when
// it is unset. os.LookupEnv is one.
type Lookup func(key string) (value string, ok bool)

// serverEnv builds a stdio server's environment: the inherited set (values
// that start with "()", exported shell functions, are left out, as the
// TypeScript SDK does), then the config's env with references resolved,
// which wins on a clash. The result is sorted, so a launch is reproducible.
func serverEnv(goos string, lookup Lookup, home string, env map[string]string) ([]string, error) {
	merged := map[string]string{}
	for _, k := range InheritedEnv(goos) {
		if v, ok := lookup(k); ok && !strings.HasPrefix(v, "()") {
			merged[k] = v
		}
	}
	for k, v := range env {
		r, err := resolve(v, lookup, home)
		if err != nil {
			return nil, fmt.Errorf("env %s: %w", sanitize.Text(k), err)
		}
		if goos == "windows" {
			// Windows variable names are case-insensitive: the config's
			// Path replaces the inherited PATH rather than sitting beside it.
			for mk := range merged {
				if strings.EqualFold(mk, k) {
					delete(merged, mk)
				}
			}
		}
		merged[k] = r
	}
	out := make([]string, 0, len(merged))
	for k, v := range merged {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out, nil
}

var refPattern = regexp.MustCompile(`\$\{([^}]*)\}`)
var plainRef = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)(:-(.*))?$`)

// resolve expands the references clients expand in a server entry, from
// the caller's environment:
//
//   - ${env:NAME} (VS Code, Cursor): the variable, empty when unset;
//   - ${NAME} and ${NAME:-default} (Claude Code): the variable, else the
//     default; unset without a default is an error, as in Claude Code;
//   - ${userHome}: the home directory.
//
// Any other ${...} (${input:id}, ${workspaceFolder} when no such variable is
// set, ${command:...}) is something only the client can answer and is an
// error naming it. $NAME and %NAME% are left as written: no client expands
// them outside a shell. Values are never quoted in errors.
func resolve(s string, lookup Lookup, home string) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var firstErr error
	out := refPattern.ReplaceAllStringFunc(s, func(m string) string {
		inner := m[2 : len(m)-1]
		switch {
		case strings.HasPrefix(inner, "env:"):
			v, _ := lookup(inner[4:])
			return v
		case inner == "userHome":
			return home
		}
		if p := plainRef.FindStringSubmatch(inner); p != nil {
			if v, ok := lookup(p[1]); ok {
				return v
			}
			if p[2] != "" {
				return p[3]
			}
			if firstErr == nil {
				firstErr = fmt.Errorf("${%s} is not set in the environment", sanitize.Text(p[1]))
			}
			return m
		}
		if firstErr == nil {
			firstErr = fmt.Errorf("${%s} can only be resolved by the client itself", sanitize.Text(sanitize.Clip(inner, 40)))
		}
		return m
	})
	if firstErr != nil {
		return "", firstErr
	}
	return out, nil
}
