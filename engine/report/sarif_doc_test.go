package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
)

// contains reports whether want is part of got: every key of a wanted
// object is in got with a contained value, every element of a wanted
// array is contained in an element of got, and other values are equal.
func contains(got, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !contains(gv, wv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok {
			return false
		}
		for _, wv := range w {
			found := false
			for _, gv := range g {
				if contains(gv, wv) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(got, want)
}

// containedSomewhere reports whether want is contained in got or in any
// value nested in it.
func containedSomewhere(got, want any) bool {
	if contains(got, want) {
		return true
	}
	switch g := got.(type) {
	case map[string]any:
		for _, v := range g {
			if containedSomewhere(v, want) {
				return true
			}
		}
	case []any:
		for _, v := range g {
			if containedSomewhere(v, want) {
				return true
			}
		}
	}
	return false
}

// TestSARIFDocumentation checks docs/sarif.md against the code: each JSON
// block is part of the real log of the reference samples, and the
// security-severity table gives each rule the score the code gives it.
func TestSARIFDocumentation(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "sarif.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	var got any
	out := SARIF(mutatedReport(t), ToolInfo{Name: "descriptorpin", Version: "0.1.0"})
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(doc, -1)
	if len(blocks) < 4 {
		t.Fatalf("docs/sarif.md shows %d JSON blocks, want at least 4", len(blocks))
	}
	for _, b := range blocks {
		var want any
		if err := json.Unmarshal([]byte(b[1]), &want); err != nil {
			t.Errorf("docs/sarif.md: a JSON block does not parse: %v\n%s", err, b[1])
			continue
		}
		if !containedSomewhere(got, want) {
			t.Errorf("docs/sarif.md shows a block the code does not write:\n%s", b[1])
		}
	}

	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID         string         `json:"id"`
						Properties map[string]any `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	scores := map[string]string{}
	for _, rl := range log.Runs[0].Tool.Driver.Rules {
		scores[rl.ID], _ = rl.Properties["security-severity"].(string)
	}
	row := regexp.MustCompile("(?m)^\\| (critical|high|medium|low) \\| `([0-9.]+)` \\| [A-Za-z]+ \\| (.*) \\|$")
	rows := row.FindAllStringSubmatch(doc, -1)
	if len(rows) != 4 {
		t.Fatalf("docs/sarif.md: want the four security-severity rows, got %d", len(rows))
	}
	for _, r := range rows {
		sev, _ := engine.ParseSeverity(r[1])
		if SecuritySeverity(sev) != r[2] {
			t.Errorf("docs/sarif.md: %s is %s, the code says %s", r[1], r[2], SecuritySeverity(sev))
		}
		for _, id := range regexp.MustCompile("`([A-Z]+(?:/[a-z_]+|/\\*)?)`").FindAllStringSubmatch(r[3], -1) {
			name := id[1]
			if strings.HasSuffix(name, "/*") {
				for rid, score := range scores {
					if strings.HasPrefix(rid, strings.TrimSuffix(name, "*")) && score != r[2] {
						t.Errorf("docs/sarif.md: %s is %s, the code gives %s %s", name, r[2], rid, score)
					}
				}
				continue
			}
			if scores[name] != r[2] {
				t.Errorf("docs/sarif.md: %s is %s, the code gives %q", name, r[2], scores[name])
			}
		}
	}
}
