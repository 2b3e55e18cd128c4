package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/monitor"
	"github.com/descriptorpin/descriptorpin/engine/scan"
	"github.com/descriptorpin/descriptorpin/service"
	"github.com/google/jsonschema-go/jsonschema"
)

// runHere runs the program in-process and returns its exit code and output.
func runHere(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func loadSchema(t *testing.T, name string) *jsonschema.Resolved {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "schemas", name))
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rs
}

func validate(t *testing.T, rs *jsonschema.Resolved, what string, doc []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatalf("%s: not JSON: %v", what, err)
	}
	if err := rs.Validate(v); err != nil {
		t.Errorf("%s does not match its schema: %v", what, err)
	}
}

// The scan JSON of every sample case matches docs/schemas/scan-report.schema.json.
func TestScanJSONMatchesItsSchema(t *testing.T) {
	rs := loadSchema(t, "scan-report.schema.json")
	dir := t.TempDir()
	pinCopy := filepath.Join(dir, "pin.json")
	data, _ := os.ReadFile("../../samples/pin.json")
	os.WriteFile(pinCopy, data, 0o644)
	mutated, clean := "../../samples/inventory_mutated.json", "../../samples/inventory_clean.json"
	// An acceptance, so "accepted" is not empty.
	_, ids, _ := runHere(t, "", "scan", mutated, "-p", pinCopy, "--show-ids")
	id := regexp.MustCompile(`TRANSPORT quick-helper: transport .* \[id ([0-9a-f]{16})\]`).FindStringSubmatch(ids)
	if id == nil {
		t.Fatalf("no TRANSPORT id in:\n%s", ids)
	}
	if code, _, errs := runHere(t, "", "approve", mutated, "-p", pinCopy, "--accept", id[1], "--approved-by", "a", "--note", "b"); code != 0 {
		t.Fatalf("approve --accept: %d %s", code, errs)
	}
	for _, args := range [][]string{
		{"scan", mutated, "-p", "../../samples/pin.json"},
		{"scan", mutated, "-p", pinCopy},
		{"scan", mutated, "-p", "../../samples/pin.json", "--rules", "reference"},
		{"scan", clean, "-p", "../../samples/pin.json"},
		{"diff", mutated, "-p", "../../samples/pin.json"},
		{"shadow", mutated},
		{"scan", "../../testdata/reference/inventory_mutated.json", "-p", "../../testdata/reference/pin.json"},
	} {
		_, out, errs := runHere(t, "", append(args, "--format", "json")...)
		if errs != "" {
			t.Fatalf("%v: %s", args, errs)
		}
		validate(t, rs, strings.Join(args, " "), []byte(out))
	}
	// The schema is strict: an unknown member fails, so it cannot drift.
	_, out, _ := runHere(t, "", "shadow", mutated, "--format", "json")
	var v map[string]any
	json.Unmarshal([]byte(out), &v)
	v["surprise"] = true
	if err := rs.Validate(v); err == nil {
		t.Error("the scan schema accepts unknown members")
	}
}

// The service's state (as monitor writes it for a scan of the samples)
// matches docs/schemas/state.schema.json, and status shows each open
// finding with the scan's id, the one approve --accept takes.
func TestStateJSONMatchesItsSchemaAndStatusShowsTheScanIDs(t *testing.T) {
	rs := loadSchema(t, "state.schema.json")
	dir := t.TempDir()
	inv, _, kind, err := loadInventory(&env{}, "../../samples/inventory_mutated.json")
	if err != nil {
		t.Fatal(err)
	}
	pn, err := loadPin(&env{}, "../../samples/pin.json")
	if err != nil {
		t.Fatal(err)
	}
	r := scan.Scan(inv, pn, scan.ScanOptions{Rules: detect.RulesDefault})
	st := monitor.NewState()
	path := filepath.Join(dir, "inventory_mutated.json")
	fs := st.File(path, monitor.Identity(path, dir), kind)
	monitor.ApplyScan(fs, r, strings.Repeat("ab", 32), []string{"notes-local"}, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	failed := st.File(filepath.Join(dir, "broken.json"), "~/broken.json", service.KindClientConfig)
	monitor.ApplyFailure(failed, os.ErrInvalid, time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC))
	state, _ := json.MarshalIndent(st, "", "  ")
	validate(t, rs, "state", state)

	os.WriteFile(filepath.Join(dir, service.StateFile), state, 0o644)
	cfg := filepath.Join(dir, "config.yaml")
	os.WriteFile(cfg, []byte("state_dir: .\ndiscover: false\ntargets:\n  - path: inventory_mutated.json\n"), 0o644)
	code, out, errs := runHere(t, "", "status", "--config", cfg)
	if code != exitFindings {
		t.Fatalf("status: exit %d, %s", code, errs)
	}
	for _, f := range r.Findings {
		if !strings.Contains(out, "[id "+f.ID+"]") {
			t.Errorf("status lacks the scan id %s of %s %s:\n%s", f.ID, f.Class, f.Subject, out)
		}
	}
	_, js, _ := runHere(t, "", "status", "--config", cfg, "--format", "json")
	if !strings.Contains(js, `"finding_id": "`+r.Findings[0].ID+`"`) {
		t.Errorf("status --format json lacks finding_id %s", r.Findings[0].ID)
	}
}
