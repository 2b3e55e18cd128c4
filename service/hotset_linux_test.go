package service

import "testing"

// TestVmRSS: the resident set is read from the status text's VmRSS line,
// and anything else is not a figure.
func TestVmRSS(t *testing.T) {
	for _, c := range []struct {
		status string
		want   int64
		ok     bool
	}{
		{"Name:\tdescriptorpin\nVmHWM:\t   22340 kB\nVmRSS:\t   10340 kB\nRssAnon:\t    8700 kB\nRssFile:\t    1640 kB\n", 10340 << 10, true},
		{"VmRSS: 0 kB", 0, true},
		{"RssAnon:\t8700 kB\n", 0, false},
		{"VmRSS:\t1640 MB\n", 0, false},
		{"VmRSS:\t-3 kB\n", 0, false},
		{"VmRSS:\n", 0, false},
	} {
		got, ok := vmRSS([]byte(c.status))
		if got != c.want || ok != c.ok {
			t.Errorf("vmRSS(%q) = %d, %v; want %d, %v", c.status, got, ok, c.want, c.ok)
		}
	}
	if n, ok := residentBytes(); !ok || n <= 0 {
		t.Errorf("residentBytes() = %d, %v: this process is resident", n, ok)
	}
}
