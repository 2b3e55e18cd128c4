package notify

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// No collector can be installed where CI runs, so the shipping recipes of
// docs/operations.md are checked here: every key against the collector's
// documented configuration reference (the tables below, one per section
// of that reference), and the settings that decide whether the event's
// own @timestamp survives. docs/operations.md says so.

// recipeBlocks returns the fenced code blocks of a section of
// docs/operations.md ("### Fluent Bit"), in order.
func recipeBlocks(t *testing.T, doc, heading string) []string {
	t.Helper()
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("docs/operations.md has no %q section", heading)
	}
	sec := doc[i+len(heading)+2:]
	if j := strings.Index(sec, "\n#"); j >= 0 {
		sec = sec[:j]
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```[a-z]*\n(.*?)```").FindAllStringSubmatch(sec, -1) {
		blocks = append(blocks, m[1])
	}
	if len(blocks) == 0 {
		t.Fatalf("%s: no code block", heading)
	}
	return blocks
}

func operationsDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "operations.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// allowedKeys checks that every key of m is one the reference documents.
func allowedKeys(t *testing.T, where string, m map[string]any, allowed ...string) {
	t.Helper()
	set := map[string]bool{}
	for _, k := range allowed {
		set[k] = true
	}
	for k := range m {
		if !set[k] {
			t.Errorf("%s: %q is not a documented setting (documented: %s)", where, k, strings.Join(allowed, ", "))
		}
	}
}

// strptimeLayout turns the strptime directives the recipes use into a Go
// time layout.
func strptimeLayout(f string) string {
	return strings.NewReplacer("%Y", "2006", "%m", "01", "%d", "02", "%H", "15", "%M", "04", "%S", "05",
		"%L", "000", "%3N", "000", "%Z", "Z07:00").Replace(f)
}

// exampleTimestamp is an @timestamp as the event log writes it.
var exampleTimestamp = stamp(time.Date(2026, 11, 30, 10, 0, 5, 250e6, time.UTC))

func TestShippingRecipesFilebeat(t *testing.T) {
	block := recipeBlocks(t, operationsDoc(t), "### Elastic Agent and Filebeat")[0]
	var cfg map[string]any
	if err := yaml.Unmarshal([]byte(block), &cfg); err != nil {
		t.Fatalf("filebeat.yml: %v", err)
	}
	allowedKeys(t, "filebeat.yml", cfg, "filebeat.inputs", "output.elasticsearch", "output.logstash", "processors")
	inputs, _ := cfg["filebeat.inputs"].([]any)
	if len(inputs) != 1 {
		t.Fatalf("want one input, got %v", cfg["filebeat.inputs"])
	}
	in := inputs[0].(map[string]any)
	// Filebeat 8.x filestream input options.
	allowedKeys(t, "filestream input", in, "type", "id", "enabled", "paths", "parsers", "prospector.scanner.exclude_files",
		"prospector.scanner.check_interval", "file_identity.fingerprint", "file_identity.native", "ignore_older",
		"close.on_state_change.inactive", "clean_removed", "fields", "fields_under_root", "tags", "processors")
	if in["type"] != "filestream" || in["id"] == nil {
		t.Errorf("want a filestream input with an id: %v", in)
	}
	parsers, _ := in["parsers"].([]any)
	if len(parsers) != 1 {
		t.Fatalf("want one parser: %v", in["parsers"])
	}
	nd, ok := parsers[0].(map[string]any)["ndjson"].(map[string]any)
	if !ok {
		t.Fatalf("want the ndjson parser: %v", parsers[0])
	}
	// The ndjson parser's documented options.
	allowedKeys(t, "ndjson parser", nd, "target", "overwrite_keys", "expand_keys", "add_error_key", "message_key", "document_id", "ignore_decoding_error")
	if nd["target"] == "" && nd["overwrite_keys"] != true {
		t.Error(`ndjson with target "" needs overwrite_keys: true, or Filebeat keeps its own @timestamp (the read time)`)
	}
	doc, err := os.ReadFile(filepath.Join("..", "docs", "events.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(doc), "`ndjson` parser") && !strings.Contains(string(doc), "`overwrite_keys: true`") {
		t.Error("docs/events.md gives the ndjson parser without overwrite_keys: true")
	}
}

// iniSections parses Fluent Bit's classic format or Splunk's .conf:
// [SECTION] headers, then "key value" (Fluent Bit) or "key = value"
// (Splunk) lines.
func iniSections(block string, sep string) (names []string, sections []map[string]string) {
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			names = append(names, line[1:len(line)-1])
			sections = append(sections, map[string]string{})
			continue
		}
		k, v, _ := strings.Cut(line, sep)
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if len(sections) > 0 {
			sections[len(sections)-1][k] = v
		}
	}
	return names, sections
}

func keysOf(m map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[strings.ToLower(k)] = v
	}
	return out
}

func TestShippingRecipesFluentBit(t *testing.T) {
	blocks := recipeBlocks(t, operationsDoc(t), "### Fluent Bit")
	if len(blocks) != 2 {
		t.Fatalf("want fluent-bit.conf and parsers.conf, got %d blocks", len(blocks))
	}
	names, secs := iniSections(blocks[0], " ")
	var tail, es map[string]string
	for i, n := range names {
		switch {
		case n == "SERVICE":
			allowedKeys(t, "[SERVICE]", keysOf(secs[i]), "flush", "daemon", "log_level", "parsers_file", "http_server", "storage.path")
		case n == "INPUT" && strings.EqualFold(secs[i]["Name"], "tail"):
			tail = secs[i]
		case n == "OUTPUT" && strings.EqualFold(secs[i]["Name"], "es"):
			es = secs[i]
		default:
			t.Errorf("unexpected section [%s] %v", n, secs[i])
		}
	}
	if tail == nil || es == nil {
		t.Fatalf("want a tail input and an es output: %v %v", names, secs)
	}
	// Fluent Bit's tail input and es output settings.
	allowedKeys(t, "tail input", keysOf(tail), "name", "tag", "path", "exclude_path", "parser", "db", "db.sync", "read_from_head",
		"refresh_interval", "rotate_wait", "mem_buf_limit", "skip_long_lines", "buffer_max_size", "path_key", "key")
	allowedKeys(t, "es output", keysOf(es), "name", "match", "host", "port", "tls", "tls.verify", "index", "suppress_type_name",
		"http_user", "http_passwd", "logstash_format", "time_key", "time_key_format", "time_key_nanos", "include_tag_key",
		"generate_id", "replace_dots", "trace_error", "cloud_id", "cloud_auth", "pipeline", "buffer_size")
	pnames, psecs := iniSections(blocks[1], " ")
	if len(pnames) != 1 || pnames[0] != "PARSER" || psecs[0]["Name"] != tail["Parser"] {
		t.Fatalf("parsers.conf must define the tail input's parser %q: %v %v", tail["Parser"], pnames, psecs)
	}
	p := psecs[0]
	allowedKeys(t, "parser", keysOf(p), "name", "format", "time_key", "time_format", "time_keep", "time_offset", "types", "decode_field", "decode_field_as")
	if p["Format"] != "json" || p["Time_Key"] != "@timestamp" {
		t.Errorf("want a json parser timed by @timestamp: %v", p)
	}
	if _, err := time.Parse(strptimeLayout(p["Time_Format"]), exampleTimestamp); err != nil {
		t.Errorf("Time_Format %q does not parse %s: %v", p["Time_Format"], exampleTimestamp, err)
	}
	// The es output writes the record time as Time_Key (@timestamp by
	// default): a kept @timestamp would be the document's second one.
	esKey := es["Time_Key"]
	if esKey == "" {
		esKey = "@timestamp"
	}
	if esKey == p["Time_Key"] && !strings.EqualFold(p["Time_Keep"], "off") {
		t.Errorf("the parser keeps %s (Time_Keep %q) and the es output adds its own: Elasticsearch rejects the duplicate", esKey, p["Time_Keep"])
	}
}

func TestShippingRecipesSplunk(t *testing.T) {
	blocks := recipeBlocks(t, operationsDoc(t), "### Splunk Universal Forwarder")
	if len(blocks) < 2 {
		t.Fatalf("want inputs.conf and props.conf, got %d blocks", len(blocks))
	}
	names, secs := iniSections(blocks[0], "=")
	if len(names) != 1 || !strings.HasPrefix(names[0], "monitor://") || !strings.HasSuffix(names[0], "events*.jsonl") {
		t.Fatalf("inputs.conf: want one monitor stanza over events*.jsonl: %v", names)
	}
	// inputs.conf.spec, [monitor://<path>].
	allowedKeys(t, "inputs.conf monitor", keysOf(secs[0]), "sourcetype", "index", "disabled", "host", "source", "crcsalt",
		"ignoreolderthan", "followtail", "whitelist", "blacklist", "recursive", "time_before_close")
	pn, ps := iniSections(blocks[1], "=")
	if len(pn) != 1 || pn[0] != secs[0]["sourcetype"] {
		t.Fatalf("props.conf: want the stanza [%s]: %v", secs[0]["sourcetype"], pn)
	}
	// props.conf.spec.
	allowedKeys(t, "props.conf", keysOf(ps[0]), "indexed_extractions", "timestamp_fields", "time_format", "tz", "should_linemerge",
		"kv_mode", "auto_kv_json", "line_breaker", "truncate", "max_timestamp_lookahead", "category", "description")
	p := ps[0]
	if p["INDEXED_EXTRACTIONS"] != "json" || p["TIMESTAMP_FIELDS"] != "@timestamp" {
		t.Errorf("props.conf: want INDEXED_EXTRACTIONS = json timed by @timestamp: %v", p)
	}
	if _, err := time.Parse(strptimeLayout(p["TIME_FORMAT"]), exampleTimestamp); err != nil {
		t.Errorf("TIME_FORMAT %q does not parse %s: %v", p["TIME_FORMAT"], exampleTimestamp, err)
	}
}

func TestShippingRecipesVector(t *testing.T) {
	block := recipeBlocks(t, operationsDoc(t), "### Vector")[0]
	var cfg map[string]map[string]map[string]any
	if err := yaml.Unmarshal([]byte(block), &cfg); err != nil {
		t.Fatalf("vector.yaml: %v", err)
	}
	src, tr, sink := cfg["sources"]["descriptorpin"], cfg["transforms"]["descriptorpin_events"], cfg["sinks"]["siem"]
	if src == nil || tr == nil || sink == nil {
		t.Fatalf("want sources.descriptorpin, transforms.descriptorpin_events and sinks.siem: %v", cfg)
	}
	allowedKeys(t, "file source", src, "type", "include", "exclude", "read_from", "ignore_older_secs", "fingerprint", "data_dir", "max_line_bytes")
	allowedKeys(t, "remap transform", tr, "type", "inputs", "source", "file", "drop_on_error", "drop_on_abort")
	allowedKeys(t, "elasticsearch sink", sink, "type", "inputs", "endpoints", "mode", "data_stream", "auth", "tls", "bulk", "api_version", "compression")
	if src["type"] != "file" || tr["type"] != "remap" || sink["type"] != "elasticsearch" {
		t.Errorf("types: %v %v %v", src["type"], tr["type"], sink["type"])
	}
	if s, _ := tr["source"].(string); !strings.Contains(s, "parse_json!") {
		t.Errorf("the remap must parse the line as JSON: %q", s)
	}
	if ins, _ := tr["inputs"].([]any); len(ins) != 1 || ins[0] != "descriptorpin" {
		t.Errorf("the transform must read the source: %v", tr["inputs"])
	}
}
