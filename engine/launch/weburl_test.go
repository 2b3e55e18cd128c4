package launch

import "testing"

// Hosts as a WHATWG URL parser (Node, browsers) reads them: the host the
// client connects to decides plaintext_remote.
func TestParseWebURLReadsHostsAsClientsDo(t *testing.T) {
	tests := []struct{ raw, scheme, host string }{
		{" http://evil.example.com/mcp", "http", "evil.example.com"},
		{"http://evil.example.com\\@127.0.0.1/mcp", "http", "evil.example.com"},
		{"http://127.0.0.1@evil.example.com/", "http", "evil.example.com"},
		{"HTTP://EVIL.example.com/", "http", "evil.example.com"},
		{"http:\\\\evil.example.com/mcp", "http", "evil.example.com"},
		{"http:evil.example.com", "http", "evil.example.com"},
		{"http://ev\til.example.com", "http", "evil.example.com"},
		{"http://0x7f.1:8080/mcp", "http", "127.0.0.1"},
		{"http://2130706433/", "http", "127.0.0.1"},
		{"http://0177.0.0.1/", "http", "127.0.0.1"},
		{"http://[::ffff:127.0.0.1]/", "http", "::ffff:127.0.0.1"},
		{"http://%6c%6fcalhost/", "http", "localhost"},
		{"http://ｌｏｃａｌｈｏｓｔ:3000/", "http", "localhost"},
		{"ws://10.0.0.5:8080/ws", "ws", "10.0.0.5"},
	}
	for _, tt := range tests {
		u, err := ParseWebURL(tt.raw)
		if err != nil || u.Scheme != tt.scheme || u.Host != tt.host {
			t.Errorf("ParseWebURL(%q) = %+v, %v; want %s %s", tt.raw, u, err, tt.scheme, tt.host)
		}
	}
	for _, bad := range []string{"http://exa mple.com/", "http://[::1/", "http://evil.example.com:99999/", "http:///", "http://a<b/", "http://1.2.3.4.5/", "http://256.0.0.1/", "evil.example.com/mcp", "http://a%zz/"} {
		if u, err := ParseWebURL(bad); err == nil {
			t.Errorf("ParseWebURL(%q) = %+v, want an error", bad, u)
		}
	}
}

// ParseWebURL never panics, and a host it returns parses back to itself.
func FuzzParseWebURL(f *testing.F) {
	for _, s := range []string{" http://evil.example.com/mcp", "http://evil.example.com\\@127.0.0.1/mcp", "http://0x7f.1/", "http://[::1]:80/", "ws://a%41b/", "http:", "http://1.2.3.4.5/", "https://u:p@h:99999/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := ParseWebURL(raw)
		if err != nil || u.IP.IsValid() || u.Host == "" {
			return
		}
		v, err := ParseWebURL(u.Scheme + "://" + u.Host + "/")
		if err != nil || v.Host != u.Host {
			t.Fatalf("%q: host %q parses back as %q, %v", raw, u.Host, v.Host, err)
		}
	})
}
