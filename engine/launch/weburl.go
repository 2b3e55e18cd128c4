package launch

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// WebURL is what a WHATWG URL parser (Node's new URL, browsers, the
// TypeScript MCP SDK every Node client launches servers through) makes of
// a remote server's URL: the scheme and the host it connects to. Go's
// net/url reads some strings differently: " http://evil/" (a leading
// space) does not parse, and "http://evil\@127.0.0.1/" is a user "evil\"
// at 127.0.0.1 to net/url but the host evil with the path /@127.0.0.1/ to
// a WHATWG parser. The launch rules judge the host the client connects to.
type WebURL struct {
	Scheme string
	Host   string // lower case, an IPv4 address in dotted form, IPv6 without brackets
	Port   string
	IP     netip.Addr // valid when Host is an IP address
}

var special = map[string]bool{"http": true, "https": true, "ws": true, "wss": true, "ftp": true, "file": true}

// ParseWebURL parses raw the way the WHATWG URL standard does, as far as
// the scheme and host: leading and trailing C0 controls and spaces are
// stripped, tabs and newlines removed, backslashes are slashes in special
// schemes, the host follows the last '@' of the authority, and IPv4 hosts
// may be written in hex, octal or fewer than four parts. An error means a
// WHATWG parser rejects the URL too (or DescriptorPin cannot tell what it
// connects to).
func ParseWebURL(raw string) (WebURL, error) {
	var u WebURL
	s := strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 })
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
	i := strings.IndexByte(s, ':')
	if i <= 0 || !validScheme(s[:i]) {
		return u, errors.New("no scheme")
	}
	u.Scheme = strings.ToLower(s[:i])
	rest := s[i+1:]
	if !special[u.Scheme] {
		if !strings.HasPrefix(rest, "//") {
			return u, errors.New("no host")
		}
		rest = rest[2:]
	} else {
		// The special authority states skip every slash and backslash.
		rest = strings.TrimLeft(rest, `/\`)
	}
	end := len(rest)
	for j := 0; j < len(rest); j++ {
		c := rest[j]
		if c == '/' || c == '?' || c == '#' || (c == '\\' && special[u.Scheme]) {
			end = j
			break
		}
	}
	auth := rest[:end]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		auth = auth[at+1:]
	}
	host, port := auth, ""
	if strings.HasPrefix(auth, "[") {
		k := strings.IndexByte(auth, ']')
		if k < 0 {
			return u, errors.New("unclosed IPv6 address")
		}
		host, port = auth[:k+1], auth[k+1:]
		if port != "" && !strings.HasPrefix(port, ":") {
			return u, errors.New("junk after the IPv6 address")
		}
		port = strings.TrimPrefix(port, ":")
	} else if k := strings.IndexByte(auth, ':'); k >= 0 {
		host, port = auth[:k], auth[k+1:]
	}
	for _, c := range port {
		if c < '0' || c > '9' {
			return u, errors.New("port is not a number")
		}
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n > 65535 {
			return u, errors.New("port out of range")
		}
	}
	u.Port = port
	if host == "" {
		return u, errors.New("empty host")
	}
	if strings.HasPrefix(host, "[") {
		ip, err := netip.ParseAddr(host[1 : len(host)-1])
		if err != nil || !ip.Is6() || ip.Zone() != "" {
			return u, errors.New("invalid IPv6 address")
		}
		u.Host, u.IP = ip.String(), ip
		return u, nil
	}
	dec, err := percentDecode(host)
	if err != nil {
		return u, err
	}
	// Domain to ASCII maps case and compatibility forms (fullwidth
	// letters); NFKC and lower case approximate it for the check.
	dec = strings.ToLower(norm.NFKC.String(dec))
	for _, c := range dec {
		if c <= 0x20 || c == 0x7f || strings.ContainsRune("#%/:<>?@[\\]^|", c) {
			return u, errors.New("forbidden character in host")
		}
	}
	if ip, ok, err := parseIPv4(dec); err != nil {
		return u, err
	} else if ok {
		u.Host, u.IP = ip.String(), ip
		return u, nil
	}
	u.Host = dec
	return u, nil
}

func validScheme(s string) bool {
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != ""
}

func percentDecode(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			n, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(n))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// parseIPv4 is the WHATWG IPv4 parser: ok is false when the host is a
// domain (its last label is not a number); an error when it ends in a
// number but is no valid address.
func parseIPv4(h string) (netip.Addr, bool, error) {
	parts := strings.Split(h, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if _, ok := ipv4Number(parts[len(parts)-1]); !ok {
		last := parts[len(parts)-1]
		if last == "" || strings.Trim(last, "0123456789") != "" {
			return netip.Addr{}, false, nil
		}
	}
	if len(parts) > 4 {
		return netip.Addr{}, false, errors.New("IPv4 address with more than four parts")
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return netip.Addr{}, false, errors.New("invalid IPv4 address")
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false, errors.New("IPv4 part out of range")
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false, errors.New("IPv4 address out of range")
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, nil
}

func ipv4Number(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
		p, base = p[2:], 16
		if p == "" {
			return 0, true
		}
	case len(p) >= 2 && p[0] == '0':
		p, base = p[1:], 8
	}
	n, err := strconv.ParseUint(p, base, 64)
	if err != nil || n > 1<<32 {
		return 0, false
	}
	return n, true
}

// Loopback reports whether the parsed host is this machine: localhost or a
// name under .localhost (with or without a final dot), 127.0.0.0/8, ::1 or
// an IPv4-mapped loopback address.
func (u WebURL) Loopback() bool {
	if u.IP.IsValid() {
		return u.IP.Unmap().IsLoopback()
	}
	h := strings.TrimSuffix(u.Host, ".")
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}
