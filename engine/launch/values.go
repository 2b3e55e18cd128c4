package launch

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/redact"
)

// Keyed value digests.
//
// A pin is meant for git, so it records a launch config redacted: env and
// header values never, arguments, URLs and launch fields with their
// secrets replaced. Comparing only those forms is blind to a change of what
// they hide (PYTHONPATH=/good -> /evil, ?tenant=acme -> ?tenant=attacker,
// one long package spec for another). So the pin also records, per hidden
// value, an HMAC-SHA256 of it under a Key: a change of any value changes
// its digest and is a LAUNCH naming the field, while the value itself is
// never stored or printed. A bare hash would not do: a short secret (a
// six-digit PIN, a tenant name) is found from its hash by trying every
// candidate. The key is a value handed in (the engine reads no files):
// the CLI and the service use the per-host key of internal/hostkey, so
// digests compare on the host that pinned, and a pin carries the key's id
// to tell when they cannot.

// Key is the secret key of the value digests; nil means none.
type Key []byte

// ID is the key's public fingerprint: 16 hex digits of a hash of it,
// recorded in the pin so a scan can tell whether its digests were made
// with this key. It reveals nothing about the key.
func (k Key) ID() string {
	if len(k) == 0 {
		return ""
	}
	h := sha256.Sum256(append([]byte("descriptorpin/launch-key-id/1\x00"), k...))
	return hex.EncodeToString(h[:8])
}

// digest is the keyed digest of one value of one field of one server.
// Binding the server and the field keeps equal values in two places from
// showing as equal digests.
func (k Key) digest(server, field, value string) string {
	m := hmac.New(sha256.New, k)
	m.Write([]byte("descriptorpin/launch-value/1\x00" + server + "\x00" + field + "\x00" + value))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// hiddenValue is one value a redacted launch config does not show.
type hiddenValue struct{ field, value string }

// hidden lists what redaction hides in a server's launch config, by the
// field a change names: every env and header value, each argument whose
// redacted form differs (whole), a URL's userinfo, redacted path, each query
// key's values and fragment plus the whole URL, and launch fields whose
// redacted form differs.
func hidden(s *engine.Server) []hiddenValue {
	var out []hiddenValue
	// A key listed without a value (an inventory records key names only)
	// has no value to digest.
	for _, k := range s.EnvKeys {
		if v, ok := s.Env[k]; ok {
			out = append(out, hiddenValue{"env " + k, v})
		}
	}
	for _, k := range s.HeaderKeys {
		if v, ok := s.Headers[k]; ok {
			out = append(out, hiddenValue{"header " + k, v})
		}
	}
	red := redact.Args(s.Args)
	for i, a := range s.Args {
		if red[i] != a {
			out = append(out, hiddenValue{fmt.Sprintf("args[%d]", i), a})
		}
	}
	if s.URL != "" && redact.URL(s.URL) != s.URL {
		out = append(out, hiddenValue{"url", s.URL})
		if u, err := url.Parse(s.URL); err == nil && u.Scheme != "" {
			if u.User != nil {
				out = append(out, hiddenValue{"url userinfo", u.User.String()})
			}
			if esc := u.EscapedPath(); strings.Contains(redact.URL(s.URL), "/"+redact.Redacted) {
				out = append(out, hiddenValue{"url path", esc})
			}
			q := u.Query()
			for k, vs := range q {
				out = append(out, hiddenValue{"url query " + k, strings.Join(vs, "\x00")})
			}
			if u.Fragment != "" {
				out = append(out, hiddenValue{"url fragment", u.EscapedFragment()})
			}
		}
	}
	for _, name := range ExtraFields {
		if v := s.Extra[name]; v != "" && RedactExtra(name, v) != v {
			out = append(out, hiddenValue{name, v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].field < out[j].field })
	return out
}

// Values returns the keyed digests of what redaction hides in a server's
// launch config, by field (see Changes for the names); nil without a key
// or when nothing is hidden.
func Values(s *engine.Server, key Key) map[string]string {
	if len(key) == 0 {
		return nil
	}
	var out map[string]string
	for _, h := range hidden(s) {
		if out == nil {
			out = map[string]string{}
		}
		out[h.field] = key.digest(s.Name, h.field, h.value)
	}
	return out
}

// Approved is a pinned launch config: the redacted server record the pin
// keeps (Server; see the pin's Server.Launch), the id of the key its value
// digests were made with, and the digests.
type Approved struct {
	Server *engine.Server
	KeyID  string
	Values map[string]string
}

// Notes on a launch whose values could not be compared.
const (
	NoteOtherHost = "values not compared: pinned on another host"
	NoteNoDigests = "values not compared: the pin records no value digests (re-approve the server to record them)"
	NoteNoKey     = "values not compared: no host key to compare them with"
)

// Compare lists what differs between an approved launch config and a
// server's: Changes (the redacted forms, key names, launch fields), then
// each hidden value whose keyed digest differs, named by its field ("env
// PYTHONPATH", "args[2]", "url query tenant"), its value never shown. When
// the values cannot be compared (the pin was made with another key, or has
// no digests, or there is no key) note says why: the redacted forms are
// still compared, but a value change could go unseen, which is never
// passed silently. A value one side does not know (an inventory lists env
// key names only, and its arguments already redacted) is not compared.
func Compare(a Approved, s *engine.Server, key Key) (changes []engine.Change, note string) {
	changes = Changes(a.Server, s)
	cur := hidden(s)
	if len(cur) == 0 && len(a.Values) == 0 {
		return changes, "" // nothing hidden on either side: the forms compared are the values
	}
	switch {
	case len(key) == 0:
		return changes, NoteNoKey
	case a.KeyID == "" && len(cur) == 0:
		return changes, ""
	case a.KeyID == "":
		return changes, NoteNoDigests
	case a.KeyID != key.ID():
		return changes, NoteOtherHost
	}
	named := map[string]bool{}
	for _, c := range changes {
		named[c.Field] = true
	}
	pin := side{srv: a.Server, stored: a.Values, key: key}
	now := side{srv: s, stored: Values(s, key), key: key, current: true}
	fields := map[string]bool{}
	for f := range pin.stored {
		fields[f] = true
	}
	for f := range now.stored {
		fields[f] = true
	}
	sorted := make([]string, 0, len(fields))
	for f := range fields {
		sorted = append(sorted, f)
	}
	sort.Strings(sorted)
	urlPart := false
	var vals []engine.Change
	whole := func(f string) {
		p, pok := pin.digest(f)
		n, nok := now.digest(f)
		if !pok || !nok || p == n || covered(f, named, a.Server, s) {
			return
		}
		if strings.HasPrefix(f, "url ") {
			urlPart = true
		}
		vals = append(vals, valueChange(f, p, n))
	}
	for _, f := range sorted {
		if f != "url" {
			whole(f)
		}
	}
	if fields["url"] && !urlPart {
		whole("url")
	}
	return append(changes, vals...), ""
}

// side is one side of a comparison: a server's forms and the digests
// stored or made for it.
type side struct {
	srv     *engine.Server
	stored  map[string]string
	key     Key
	current bool
}

// digest is the digest of a field on this side ("" when the field is
// absent) and whether it is known. A field without a stored digest is
// known when the side's form of it is its value (nothing was redacted
// from it): its digest is made from the form.
func (sd side) digest(f string) (string, bool) {
	if d, ok := sd.stored[f]; ok {
		return d, true
	}
	form := func(v string) (string, bool) {
		if strings.Contains(v, redact.Redacted) {
			return "", false
		}
		if v == "" {
			return "", true
		}
		return sd.key.digest(sd.srv.Name, f, v), true
	}
	switch {
	case strings.HasPrefix(f, "env "):
		v, ok := sd.srv.Env[f[4:]]
		if !ok || !sd.current {
			return "", false
		}
		return sd.key.digest(sd.srv.Name, f, v), true
	case strings.HasPrefix(f, "header "):
		v, ok := sd.srv.Headers[f[7:]]
		if !ok || !sd.current {
			return "", false
		}
		return sd.key.digest(sd.srv.Name, f, v), true
	case strings.HasPrefix(f, "args["):
		var i int
		if _, err := fmt.Sscanf(f, "args[%d]", &i); err != nil || i < 0 || i >= len(sd.srv.Args) {
			return "", true
		}
		return form(sd.srv.Args[i])
	case f == "url":
		return form(sd.srv.URL)
	case strings.HasPrefix(f, "url "):
		// A part with no digest was absent, unless the URL's form hides
		// it (then it is not known).
		if _, ok := sd.stored["url"]; ok || !strings.Contains(sd.srv.URL, redact.Redacted) {
			return "", true
		}
		return "", false
	}
	return form(sd.srv.Extra[f])
}

// covered reports whether a value change is already told by a change of
// the redacted forms: an env or header key present on one side only (the
// key sets differ), an argument list, URL or launch field whose shown form
// changed.
func covered(f string, named map[string]bool, ps, s *engine.Server) bool {
	switch {
	case strings.HasPrefix(f, "env "):
		k := f[4:]
		return !has(ps.EnvKeys, k) || !has(s.EnvKeys, k)
	case strings.HasPrefix(f, "header "):
		k := f[7:]
		return !has(ps.HeaderKeys, k) || !has(s.HeaderKeys, k)
	case strings.HasPrefix(f, "args["):
		return named["args"]
	case f == "url" || strings.HasPrefix(f, "url "):
		return named["url"]
	}
	return named[f]
}

func has(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// What a value change shows in place of the values.
const (
	HiddenPinned  = "(value hidden)"
	HiddenScanned = "(another value, hidden)"
)

func valueChange(field, pinned, scanned string) engine.Change {
	c := engine.Change{Field: field, Path: field, Pinned: HiddenPinned, Scanned: HiddenScanned}
	if pinned == "" {
		c.Pinned = engine.Absent
	}
	if scanned == "" {
		c.Scanned = engine.Absent
	}
	return c
}

// MatchesApproved reports whether a server's real launch, values
// included, is the approved one: no change of a redacted form, key name or
// launch field, and every hidden value's keyed digest equal. It is false
// when the values cannot be compared (no key, another host's pin, a pin
// without digests for a launch that hides values) and for a nil record:
// the service's scheduled capture runs a stdio server unattended only when
// it is true.
func MatchesApproved(a *Approved, s *engine.Server, key Key) bool {
	if a == nil || a.Server == nil {
		return false
	}
	ch, note := Compare(*a, s, key)
	return len(ch) == 0 && note == ""
}

// ValuesDigest is one digest over all of a server's value digests, for a
// finding id that changes when any hidden value does.
func ValuesDigest(s *engine.Server, key Key) string {
	v := Values(s, key)
	if len(v) == 0 {
		return ""
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		h.Write([]byte(k + "\x00" + v[k] + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))
}
