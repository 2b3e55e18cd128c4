package redact

import (
	"math"
	"regexp"
	"strings"
)

// Secret detection: one helper decides what is a secret and every output
// path (pins, reports, events, notifications) redacts through it.

// providerPrefixes are the shapes of well-known credentials.
var providerToken = regexp.MustCompile(`^(sk-[A-Za-z0-9_-]{16,}|sk_(live|test)_[A-Za-z0-9]{16,}|rk_(live|test)_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|glpat-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,}|sq0[a-z]{3}-[A-Za-z0-9_-]{22,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})`)

// reference matches a value that points at a secret instead of holding
// one: ${env:VAR}, ${input:id}, ${VAR}, $VAR, %VAR%.
var reference = regexp.MustCompile(`^(\$\{(env:|input:)?[A-Za-z_][A-Za-z0-9_.:-]*\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%)$`)

// secretKey names keys whose values are secrets whatever they look like.
var secretKey = regexp.MustCompile(`(?i)(token|secret|passw(or)?d|api[_-]?key|apikey|auth|credential|private[_-]?key|access[_-]?key|session|cookie|bearer)`)

// IsReference reports whether v refers to a secret kept elsewhere.
func IsReference(v string) bool {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(strings.ToLower(v), "bearer ") {
		v = strings.TrimSpace(v[7:])
	}
	return reference.MatchString(v)
}

// LooksSecret reports whether a value is token-shaped: a provider key
// prefix, a bearer credential, or a long high-entropy string. References
// (${env:VAR}) are not secrets.
func LooksSecret(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" || IsReference(v) {
		return false
	}
	if strings.HasPrefix(strings.ToLower(v), "bearer ") || strings.HasPrefix(strings.ToLower(v), "basic ") {
		return len(strings.TrimSpace(v[6:])) >= 8
	}
	if providerToken.MatchString(v) {
		return true
	}
	return highEntropy(v)
}

// highEntropy: at least 24 characters of one token (no spaces, no path
// separators), mixing letters and digits, with Shannon entropy above 3.5
// bits per character.
func highEntropy(v string) bool {
	if len(v) < 24 || strings.ContainsAny(v, " /\\") {
		return false
	}
	var lower, upper, digit bool
	counts := map[rune]int{}
	n := 0
	for _, r := range v {
		switch {
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= '0' && r <= '9':
			digit = true
		case r == '-' || r == '_' || r == '.' || r == '=' || r == '+':
		default:
			return false
		}
		counts[r]++
		n++
	}
	if !digit || !(lower || upper) {
		return false
	}
	h := 0.0
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h > 3.5
}

// SecretValue reports whether the value of key must never be shown: the
// key names a secret (and the value is not a reference), or the value
// looks like one.
func SecretValue(key, v string) bool {
	if IsReference(v) || strings.TrimSpace(v) == "" {
		return false
	}
	return secretKey.MatchString(key) || LooksSecret(v)
}

// Arg hides a secret inside one command-line argument: a whole
// token-shaped argument, or the value of --flag=value when the flag names a
// secret or the value looks like one.
func Arg(a string) string {
	if i := strings.IndexByte(a, '='); i > 0 && strings.HasPrefix(a, "-") {
		if SecretValue(a[:i], a[i+1:]) {
			return a[:i+1] + Redacted
		}
		return a
	}
	if LooksSecret(a) {
		return Redacted
	}
	return a
}

// Args applies Arg to each argument and also hides the value
// after a flag that names a secret ("--token VALUE").
func Args(args []string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = Arg(a)
		if i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") &&
			secretKey.MatchString(args[i-1]) && !IsReference(a) && !strings.HasPrefix(a, "-") {
			out[i] = Redacted
		}
	}
	return out
}
