package config

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// UndefinedVarError reports a $VAR or ${VAR} reference to an environment
// variable that is not set.
type UndefinedVarError struct {
	Name string
}

func (e *UndefinedVarError) Error() string {
	return fmt.Sprintf("undefined environment variable %q", e.Name)
}

// Expand expands a path from the config file:
//
//   - a leading "~" alone or followed by a separator is the home directory
//     ("~user" is an error);
//   - $VAR and ${VAR} are environment variables; an unset variable is an
//     *UndefinedVarError naming it (a variable set to "" expands to "");
//   - "$$" is a literal "$", and so is a "$" not followed by a name or "{"
//     (as in the Windows share \\host\c$\dir).
//
// The result is not cleaned or made absolute. Variable values are not
// expanded again.
func Expand(path string) (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		home = ""
	}
	return expand(path, os.LookupEnv, home)
}

// expand is Expand with the environment and home directory injected.
func expand(p string, lookup func(string) (string, bool), home string) (string, error) {
	var b strings.Builder
	rest := p
	if strings.HasPrefix(p, "~") {
		after := p[1:]
		if after != "" && after[0] != '/' && !(os.PathSeparator == '\\' && after[0] == '\\') {
			return "", errors.New(`"~user" paths are not supported; use "~/" or an absolute path`)
		}
		if home == "" {
			return "", fmt.Errorf("expanding ~: %w", errNoHome)
		}
		b.WriteString(home)
		rest = after
	}
	for {
		i := strings.IndexByte(rest, '$')
		if i < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		b.WriteString(rest[:i])
		rest = rest[i+1:]
		var name string
		switch {
		case strings.HasPrefix(rest, "$"):
			b.WriteByte('$')
			rest = rest[1:]
			continue
		case strings.HasPrefix(rest, "{"):
			end := strings.IndexByte(rest, '}')
			if end < 0 {
				return "", errors.New(`unterminated "${" in path`)
			}
			name = rest[1:end]
			if !isEnvName(name) {
				return "", fmt.Errorf("invalid variable name %s in path", quote("${"+name+"}"))
			}
			rest = rest[end+1:]
		case rest != "" && isNameStart(rest[0]):
			n := 1
			for n < len(rest) && isNameChar(rest[n]) {
				n++
			}
			name, rest = rest[:n], rest[n:]
		default:
			b.WriteByte('$')
			continue
		}
		v, ok := lookup(name)
		if !ok {
			return "", &UndefinedVarError{Name: name}
		}
		b.WriteString(v)
	}
}

func isNameStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isNameChar(c byte) bool { return isNameStart(c) || '0' <= c && c <= '9' }

// isEnvName reports whether s is a portable environment variable name.
func isEnvName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}
