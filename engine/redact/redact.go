// Package redact is DescriptorPin's one redaction policy: what of a URL, a
// command-line argument or an environment value may be shown, pinned,
// logged or notified. Every output path redacts through it.
//
// Two URL forms exist, for two kinds of URL. URL keeps where a server's
// URL points (scheme, host, path, query keys), because a launch config is
// compared and reviewed by it. Endpoint keeps only scheme://host, because a
// notification endpoint (a Slack or Teams webhook) carries its secret in
// the path.
package redact

import (
	"net/url"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Redacted replaces a secret value wherever one would otherwise be shown.
const Redacted = "REDACTED"

// URL removes what a URL may carry as a secret: the userinfo, the values
// of the query string, the fragment and any path segment that looks like a
// secret (a Zapier-style key in the path). Scheme, host, port, the rest of
// the path and query keys stay, so a reader still sees where it points. A string that does not parse as
// a URL with a scheme is returned as Redacted when it has a query or an
// '@', unchanged otherwise.
func URL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		if strings.ContainsAny(raw, "?@") {
			return Redacted
		}
		return raw
	}
	if u.User != nil {
		u.User = url.User(Redacted)
	}
	if esc := u.EscapedPath(); esc != "" {
		segs := strings.Split(esc, "/")
		changed := false
		for i, seg := range segs {
			if dec, err := url.PathUnescape(seg); err == nil && LooksSecret(dec) {
				segs[i], changed = Redacted, true
			}
		}
		if changed {
			esc = strings.Join(segs, "/")
			u.Path, _ = url.PathUnescape(esc)
			u.RawPath = esc
		}
	}
	if u.RawQuery != "" {
		q := u.Query()
		keys := make([]string, 0, len(q))
		for k := range q {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			parts = append(parts, url.QueryEscape(k)+"="+Redacted)
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	u.Fragment = ""
	u.RawFragment = ""
	return u.String()
}

// Unparsed is what Endpoint shows for a string that is not an absolute URL
// with a host.
const Unparsed = "<redacted>"

// Endpoint returns what of a notification endpoint URL may be shown in
// errors, logs, events and output: scheme://host[:port], escaped for a
// terminal. Paths, queries and user info often hold a token and are never
// shown; a string that does not parse as an absolute URL with a host is
// Unparsed.
func Endpoint(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return Unparsed
	}
	return sanitize.Text(u.Scheme + "://" + u.Host)
}
