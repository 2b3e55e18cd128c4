package engine

import (
	"net/url"
	"sort"
	"strings"
)

// Redacted replaces a secret value wherever one would otherwise be shown.
const Redacted = "REDACTED"

// RedactURL removes what a URL may carry as a secret: the userinfo and the
// values of the query string. Scheme, host, port, path and query keys stay,
// so a reader still sees where it points. A string that does not parse as
// a URL with a scheme is returned as Redacted when it has a query or an
// '@', unchanged otherwise.
func RedactURL(raw string) string {
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
