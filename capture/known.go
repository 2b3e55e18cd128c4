package capture

import (
	"bytes"
	"net/url"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/redact"
)

// minKnownLen is the shortest known value the stderr tail redacts: a
// value of one to three bytes ("1", "on", "dev") is no secret, and
// replacing every occurrence of it would make the tail unreadable.
const minKnownLen = 4

// knownValues are the values a server was given that it could echo back:
// every env and header value of its config entry, as written and as
// resolved, and whatever a reference (${env:TOKEN}) in its command or
// args resolved to. Longest first, so a value containing another is
// replaced whole.
func knownValues(s map[string]string, h map[string]string, looked []string, resolved ...map[string]string) [][]byte {
	seen := map[string]bool{}
	var out [][]byte
	add := func(v string) {
		if len(v) >= minKnownLen && !seen[v] {
			seen[v] = true
			out = append(out, []byte(v))
		}
	}
	for _, m := range append([]map[string]string{s, h}, resolved...) {
		for _, v := range m {
			add(v)
		}
	}
	for _, v := range looked {
		add(v)
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return bytes.Compare(out[i], out[j]) < 0
	})
	return out
}

// recordingLookup wraps l and remembers every value it returned.
func recordingLookup(l Lookup, into *[]string) Lookup {
	return func(k string) (string, bool) {
		v, ok := l(k)
		if ok {
			*into = append(*into, v)
		}
		return v, ok
	}
}

// redactKnown replaces every occurrence of a known value in b.
func redactKnown(b []byte, known [][]byte) []byte {
	for _, k := range known {
		if bytes.Contains(b, k) {
			b = bytes.ReplaceAll(b, k, []byte(redact.Redacted))
		}
	}
	return b
}

// heldBack is how many bytes at the end of b could be the start of a
// known value that the next write completes: they are not stored yet.
func heldBack(b []byte, known [][]byte) int {
	n := 0
	for _, k := range known {
		for l := min(len(k)-1, len(b)); l > n; l-- {
			if bytes.HasSuffix(b, k[:l]) {
				n = l
				break
			}
		}
	}
	return n
}

// argSecrets are the parts of a server's arguments the redaction policy
// hides (a whole credential-shaped argument, the value of NAME=VALUE, a
// URL's password): a server that echoes its command line to stderr must
// not have them shown.
func argSecrets(args []string) []string {
	var out []string
	red := redact.Args(args)
	for i, a := range args {
		if red[i] == a {
			continue
		}
		out = append(out, a)
		if k := strings.IndexByte(a, '='); k > 0 {
			out = append(out, a[k+1:])
		}
		if u, err := url.Parse(a); err == nil && u.User != nil {
			if pw, ok := u.User.Password(); ok {
				out = append(out, pw)
			}
		}
	}
	return out
}
