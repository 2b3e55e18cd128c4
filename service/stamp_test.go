package service

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Issue 11: one timestamp layout. Shipped code formats times with
// engine.Stamp (engine.TimeFormat), never with a layout of its own; the
// pin's approved_at (RFC 3339 to the second, part of the pin format) and
// file-name stamps (no colons) are the only other layouts.
func TestOneTimestampLayout(t *testing.T) {
	layout := regexp.MustCompile(`\.Format\((time\.RFC3339[A-Za-z]*|"[^"]*15:04[^"]*")\)`)
	allowed := map[string]bool{
		"func ApprovedAt(t time.Time) string { return t.UTC().Format(time.RFC3339) }": true, // the pin format's approved_at
		`const TimeFormat = "2006-01-02T15:04:05.000Z07:00"`:                          true,
		`func Stamp(t time.Time) string { return t.UTC().Format(TimeFormat) }`:        true,
	}
	root := ".."
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || strings.HasPrefix(n, ".") && p != root || n == "bench" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if l := strings.TrimSpace(line); layout.MatchString(l) && !allowed[l] {
				t.Errorf("%s:%d: a timestamp layout of its own (use engine.Stamp): %s", p, i+1, l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
