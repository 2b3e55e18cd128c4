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
// token-shaped argument, the value of --flag=value when the flag names a
// secret or the value looks like one, the credentials of a URL-shaped
// argument (postgres://user:PW@host, ?api_key=K, a key in the path, see URL)
// and the value of a header-shaped one ("Authorization: Bearer T",
// "X-Api-Key:V") or of an assignment (docker run -e TOKEN=V) when the
// name names a secret or the value looks like one.
func Arg(a string) string {
	if i := strings.IndexByte(a, '='); i > 0 && strings.HasPrefix(a, "-") {
		if SecretValue(a[:i], a[i+1:]) {
			return a[:i+1] + Redacted
		}
		return a[:i+1] + value(a[i+1:])
	}
	return value(a)
}

// value redacts one argument or flag value by its shape. When hiding a
// part leaves a whole that itself looks like a token ("A0B1TOKEN2=" plus
// Redacted is long and mixed enough), the whole is hidden: a second pass
// would hide it anyway, and redacting twice must change nothing.
func value(v string) string {
	if LooksSecret(v) {
		return Redacted
	}
	r := part(v)
	if r != v && LooksSecret(r) {
		return Redacted
	}
	return r
}

// part redacts the secret part of a URL-, header- or assignment-shaped value.
func part(v string) string {
	if URLShaped(v) {
		return URL(v)
	}
	if name, sep, val, ok := headerShaped(v); ok && SecretValue(name, val) {
		return name + sep + Redacted
	}
	if m := assignment.FindStringSubmatch(v); m != nil {
		// NAME=VALUE, as docker run -e and env(1) take it.
		if SecretValue(m[1], m[2]) {
			return m[1] + "=" + Redacted
		}
		if URLShaped(m[2]) {
			return m[1] + "=" + URL(m[2])
		}
	}
	return v
}

// assignment matches an environment assignment, NAME=VALUE.
var assignment = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=(.*)$`)

// urlShaped matches scheme:// at the start of a string, the shape of every
// URL that can carry a host and credentials (https://, postgres://,
// mongodb+srv://, redis://).
var urlShaped = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// URLShaped reports whether an argument is a URL with an authority.
func URLShaped(v string) bool { return urlShaped.MatchString(strings.TrimSpace(v)) }

// headerLine matches "Name: value" and "Name:value" with an HTTP token as
// the name; a one-letter name is a Windows drive (C:\x), not a header.
var headerLine = regexp.MustCompile(`^([!#$%&'*+.^_|~0-9A-Za-z-]{2,}):([ \t]*)(.+)$`)

func headerShaped(v string) (name, sep, val string, ok bool) {
	m := headerLine.FindStringSubmatch(v)
	if m == nil || strings.HasPrefix(m[3], "//") {
		return "", "", "", false
	}
	return m[1], ":" + m[2], m[3], true
}

// Args applies Arg to each argument and also hides the value after a flag
// that names a secret ("--token VALUE"); a URL there keeps what URL keeps
// ("--oauth-issuer https://login.example/...").
func Args(args []string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = Arg(a)
		if SecretFlagValue(args, i) {
			out[i] = Redacted
			if URLShaped(a) {
				out[i] = URL(a)
			}
		}
	}
	return out
}

// SecretFlagValue reports whether args[i] is the value of the flag before
// it and that flag names a secret ("--token VALUE").
func SecretFlagValue(args []string, i int) bool {
	a := args[i]
	return i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") &&
		secretKey.MatchString(args[i-1]) && !IsReference(a) && !strings.HasPrefix(a, "-")
}
