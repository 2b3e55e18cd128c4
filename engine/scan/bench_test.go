package scan

// Benchmarks of the engine's hot paths on a generated inventory (see
// bench/invgen). Run them with
//
//	go test -run='^$' -bench=. -benchmem ./engine/
//
// Figures go into docs/benchmarks.md; no test asserts a timing.

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

const (
	benchServers = 20 // 20 x 50 = 1,000 tools
	benchTools   = 50
	benchMutate  = 12 // "a few" changed descriptions, 4 of them poisoned
)

var benchApproval = pin.Approval{By: "bench@example.com", Note: "benchmark", At: "2026-01-01T00:00:00Z"}

// benchFixture is one generated inventory, its mutated copy and a format-2
// pin of the clean one.
type benchFixture struct {
	clean, mutated []byte // inventory documents, compact JSON
	indented       []byte // clean, indented with two spaces
	pn             []byte // format-2 pin of clean
}

var (
	benchMu       sync.Mutex
	benchFixtures = map[int]*benchFixture{}
)

// benchData generates (once per size) an inventory of servers x benchTools
// tools. Generation is deterministic, so every run measures the same input.
func benchData(b *testing.B, servers int) *benchFixture {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	if f, ok := benchFixtures[servers]; ok {
		return f
	}
	opt := invgen.Options{Servers: servers, Tools: benchTools, Seed: invgen.DefaultSeed}
	clean, err := invgen.Generate(opt)
	if err != nil {
		b.Fatal(err)
	}
	opt.Mutate = benchMutate
	mutated, err := invgen.Generate(opt)
	if err != nil {
		b.Fatal(err)
	}
	indented, err := invgen.Generate(invgen.Options{Servers: servers, Tools: benchTools, Seed: invgen.DefaultSeed, Indent: true})
	if err != nil {
		b.Fatal(err)
	}
	inv, err := inventory.Parse("clean.json", clean)
	if err != nil {
		b.Fatal(err)
	}
	pn, err := pin.Build(inv, pin.Format2, benchApproval)
	if err != nil {
		b.Fatal(err)
	}
	f := &benchFixture{clean: clean, mutated: mutated, indented: indented, pn: pn.Marshal()}
	benchFixtures[servers] = f
	return f
}

func benchParse(b *testing.B, name string, data []byte) *engine.Inventory {
	b.Helper()
	inv, err := inventory.Parse(name, data)
	if err != nil {
		b.Fatal(err)
	}
	return inv
}

func benchLoadPin(b *testing.B, data []byte) *pin.Pin {
	b.Helper()
	p, err := pin.Load("pin.json", data)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// benchTool is a realistic descriptor: prose with a rule-shaped sentence,
// a nested input schema with enums and defaults, an output schema,
// annotations and _meta (which format 2 leaves out).
const benchTool = `{"servers":[{"name":"tickets-gateway-003","transport":"http","url":"https://mcp.example.internal/mcp","tools":[{
  "name": "tix3_search_ticket",
  "title": "Search tickets",
  "description": "Runs a full-text search over tickets and returns ranked matches with scores. Results are paginated; pass the cursor from the previous response to continue. Filtering by status is exact and case-sensitive. Always returns results in ascending order of priority. Closed tickets can be reopened within 30 days; after that a new ticket is created and linked. Rate limits apply per account: about 120 requests per minute, with a Retry-After header when exceeded. Timestamps are RFC 3339 in UTC.",
  "input_schema": {
    "type": "object",
    "properties": {
      "query": {"type": "string", "description": "Free text to search for; quoted phrases match exactly.", "minLength": 1, "maxLength": 512},
      "status": {"type": "string", "description": "Only tickets in this status.", "enum": ["open", "in_progress", "blocked", "closed"], "default": "open"},
      "limit": {"type": "integer", "description": "Maximum number of items to return.", "minimum": 1, "maximum": 500, "default": 50},
      "cursor": {"type": "string", "description": "Opaque cursor from a previous page; omit for the first page."},
      "tags": {"type": "array", "description": "Tags to filter on; all must match.", "items": {"type": "string", "pattern": "^[a-z0-9-]{1,32}$"}, "maxItems": 20},
      "filter": {
        "type": "object",
        "description": "Structured filter; conditions are combined with the given mode.",
        "properties": {
          "mode": {"type": "string", "enum": ["all", "any"], "default": "all"},
          "conditions": {"type": "array", "maxItems": 10, "items": {
            "type": "object",
            "properties": {
              "field": {"type": "string", "enum": ["priority", "status", "owner"]},
              "op": {"type": "string", "enum": ["eq", "ne", "lt", "gt", "contains"], "default": "eq"},
              "value": {"description": "Value to compare with; its type follows the field."}
            },
            "required": ["field", "value"]
          }}
        }
      }
    },
    "required": ["query"],
    "additionalProperties": false
  },
  "output_schema": {
    "type": "object",
    "properties": {
      "items": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}, "score": {"type": "number", "minimum": 0.0, "maximum": 1.0}, "updated_at": {"type": "string", "format": "date-time"}}}},
      "next_cursor": {"type": ["string", "null"], "description": "Cursor for the next page, or null on the last page."}
    }
  },
  "annotations": {"title": "Search tickets", "readOnlyHint": true, "openWorldHint": false},
  "_meta": {"vendor/build": "2026.01.3"}
}]}]}`

func BenchmarkCanonicalize(b *testing.B) {
	inv := benchParse(b, "tool.json", []byte(benchTool))
	t := inv.Servers[0].Tools[0]
	for _, format := range []int{pin.Format1, pin.Format2} {
		b.Run(fmt.Sprintf("format=%d", format), func(b *testing.B) {
			b.SetBytes(int64(len(pin.Describe(t, format, pin.DefaultExclude()).Canon)))
			b.ReportAllocs()
			for b.Loop() {
				pin.Describe(t, format, pin.DefaultExclude())
			}
		})
	}
}

// BenchmarkParseInventory parses the same inventory written compact (as a
// client's tools/list dump) and indented (as a hand-kept file).
func BenchmarkParseInventory(b *testing.B) {
	f := benchData(b, benchServers)
	for _, c := range []struct {
		name string
		data []byte
	}{{"compact", f.clean}, {"indented", f.indented}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for b.Loop() {
				benchParse(b, "inv.json", c.data)
			}
		})
	}
}

// BenchmarkScan is the whole Scan of the mutated inventory against a
// format-2 pin of the clean one: compare, shadow, poison and transport.
// Parsing and pin loading are outside the loop (see BenchmarkScanPipeline).
func BenchmarkScan(b *testing.B) {
	f := benchData(b, benchServers)
	inv := benchParse(b, "inv.json", f.mutated)
	pn := benchLoadPin(b, f.pn)
	for _, rs := range []detect.RuleSet{detect.RulesDefault, detect.RulesReference} {
		b.Run("rules="+string(rs), func(b *testing.B) {
			r := Scan(inv, pn, ScanOptions{Rules: rs})
			if countClass(r, engine.Mutation) != benchMutate {
				b.Fatalf("scan found %d mutations, want %d", countClass(r, engine.Mutation), benchMutate)
			}
			b.SetBytes(int64(len(f.mutated)))
			b.ReportAllocs()
			for b.Loop() {
				Scan(inv, pn, ScanOptions{Rules: rs})
			}
		})
	}
}

func countClass(r *Report, c engine.Class) int {
	n := 0
	for _, f := range r.Findings {
		if f.Class == c {
			n++
		}
	}
	return n
}

// BenchmarkScanPipeline is what 'descriptorpin scan' does minus file I/O
// and report rendering: load and verify the pin, parse the inventory,
// scan. It runs at two sizes to show how the cost grows with the
// inventory; the floor benchmark below does the minimum at the same sizes.
func BenchmarkScanPipeline(b *testing.B) {
	for _, servers := range []int{benchServers, 4 * benchServers} {
		f := benchData(b, servers)
		b.Run(fmt.Sprintf("tools=%d", servers*benchTools), func(b *testing.B) {
			b.SetBytes(int64(len(f.mutated)))
			b.ReportAllocs()
			for b.Loop() {
				pn := benchLoadPin(b, f.pn)
				inv := benchParse(b, "inv.json", f.mutated)
				Scan(inv, pn, ScanOptions{Rules: detect.RulesDefault})
			}
		})
	}
}

// BenchmarkFloor is bench/floor in process: decode the inventory with
// encoding/json into an any and hash its bytes.
func BenchmarkFloor(b *testing.B) {
	for _, servers := range []int{benchServers, 4 * benchServers} {
		f := benchData(b, servers)
		b.Run(fmt.Sprintf("tools=%d", servers*benchTools), func(b *testing.B) {
			b.SetBytes(int64(len(f.mutated)))
			b.ReportAllocs()
			for b.Loop() {
				var v any
				if err := json.Unmarshal(f.mutated, &v); err != nil {
					b.Fatal(err)
				}
				sha256.Sum256(f.mutated)
			}
		})
	}
}

func BenchmarkBuildPinMarshal(b *testing.B) {
	f := benchData(b, benchServers)
	inv := benchParse(b, "inv.json", f.clean)
	for _, format := range []int{pin.Format1, pin.Format2} {
		b.Run(fmt.Sprintf("format=%d", format), func(b *testing.B) {
			p, err := pin.Build(inv, format, benchApproval)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(p.Marshal())))
			b.ReportAllocs()
			for b.Loop() {
				p, err := pin.Build(inv, format, benchApproval)
				if err != nil {
					b.Fatal(err)
				}
				p.Marshal()
			}
		})
	}
}

func BenchmarkLoadPin(b *testing.B) {
	f := benchData(b, benchServers)
	b.SetBytes(int64(len(f.pn)))
	b.ReportAllocs()
	for b.Loop() {
		benchLoadPin(b, f.pn)
	}
}

// BenchmarkDetectPoison runs the poison detectors alone over every tool
// of the clean 1,000-tool inventory (where the default rules find nothing,
// so every text a model reads is examined). It is most of BenchmarkScan.
func BenchmarkDetectPoison(b *testing.B) {
	f := benchData(b, benchServers)
	tools := benchParse(b, "inv.json", f.clean).Tools()
	for _, rs := range []detect.RuleSet{detect.RulesDefault, detect.RulesReference} {
		b.Run("rules="+string(rs), func(b *testing.B) {
			b.SetBytes(int64(len(f.clean)))
			b.ReportAllocs()
			for b.Loop() {
				for _, t := range tools {
					detect.Poison(t, rs)
				}
			}
		})
	}
}

// BenchmarkRescan is the service's work for one change of a watched file:
// parse it and scan it against the pin, the file alternating between its
// clean form and one with one tool changed. With the daemon's Cache only
// the changed tool is hashed and examined again; with reuse the file is
// parsed as the daemon parses a large one (inventory.Reuser), so the
// servers the change did not touch are the same values as the last
// scan's and the cache knows their tools by identity (see toolMemo).
// tools=1 is the one-tool file the issue compares with.
func BenchmarkRescan(b *testing.B) {
	for _, c := range []struct {
		servers, tools int
		cache, reuse   bool
	}{{1, 1, false, false}, {1, 1, true, false}, {20, 50, false, false}, {20, 50, true, false}, {20, 50, true, true}} {
		clean, changed, err := invgen.GenerateChange(invgen.Options{Servers: c.servers, Tools: c.tools, Seed: invgen.DefaultSeed})
		if err != nil {
			b.Fatal(err)
		}
		pn, err := pin.Build(benchParse(b, "inv.json", clean), pin.Format2, benchApproval)
		if err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("tools=%d/cache=%v", c.servers*c.tools, c.cache)
		if c.reuse {
			name += "+reuse"
		}
		b.Run(name, func(b *testing.B) {
			so := ScanOptions{Rules: detect.RulesDefault}
			if c.cache {
				so.Cache = &Cache{}
			}
			var r inventory.Reuser
			parse := func(data []byte) *engine.Inventory {
				if !c.reuse {
					return benchParse(b, "inv.json", data)
				}
				if inv, ok := r.Update("inv.json", data); ok {
					return inv
				}
				inv, err := r.Parse("inv.json", data)
				if err != nil {
					b.Fatal(err)
				}
				return inv
			}
			docs := [][]byte{clean, changed}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				Scan(parse(docs[i%2]), pn, so)
				i++
			}
		})
	}
}
