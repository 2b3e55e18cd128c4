// Package invgen generates large, deterministic inventories in
// DescriptorPin's inventory format for benchmarks: servers with a mix of
// http, sse and stdio transports, tools with a title, a description of
// varied prose, an input schema (some nested), sometimes an output schema,
// and annotations.
//
// The same Options always give the same bytes. The prose includes wording
// that the reference rules flag and the default rules deliberately leave
// alone ("Always returns…", "Ignore case…", "your system timezone"), so a
// default-rules scan of a clean inventory reports nothing but stdio
// transports, while the reference rules report poison signals. Mutate
// changes a number of descriptions, a third of them into instruction-shaped
// text, so a scan against a pin of the clean inventory has findings of
// every kind a rug pull produces.
//
// The package uses the standard library only and does not import the
// engine, so the engine's own benchmarks can use it.
package invgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Options selects the shape of a generated inventory.
type Options struct {
	Servers int    // number of servers
	Tools   int    // tools per server
	Seed    uint64 // the same seed gives the same inventory
	// Mutate changes this many tool descriptions (spread over the
	// inventory); every third change injects instruction-shaped text.
	Mutate int
	// Indent writes JSON indented with two spaces, like a hand-maintained
	// file; by default it is compact, as a client's tools/list dump is.
	Indent bool
}

// DefaultSeed is the seed the benchmarks and bench/gen use.
const DefaultSeed = 20260101

// The size of a tool. With these, 400 servers x 50 tools is about 14 MB
// of compact JSON (some 700 bytes a tool), the shape of the 20,000-tool
// inventory in issue 16 that the Go build is measured against.
const (
	DescriptionMin = 100 // characters of description, at least
	DescriptionMax = 240 // and at most
	PropertiesMin  = 1   // input schema properties (a nested filter on 5% of tools comes on top)
	PropertiesMax  = 5
)

// Generate returns the inventory document.
// GenerateChange returns the inventory o describes (with no mutation)
// and the same inventory with one tool changed: a one-tool change, as
// the service's and the scan cache's benchmarks replay it.
func GenerateChange(o Options) (clean, changed []byte, err error) {
	o.Mutate = 0
	if clean, err = Generate(o); err != nil {
		return nil, nil, err
	}
	o.Mutate = 1
	changed, err = Generate(o)
	return clean, changed, err
}

func Generate(o Options) ([]byte, error) {
	if o.Servers < 0 || o.Tools < 0 || o.Mutate < 0 {
		return nil, fmt.Errorf("servers, tools and mutate must not be negative")
	}
	if o.Mutate > o.Servers*o.Tools {
		return nil, fmt.Errorf("cannot mutate %d tools of %d", o.Mutate, o.Servers*o.Tools)
	}
	g := &gen{r: rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))}
	inv := inventory{Servers: make([]*server, 0, o.Servers)}
	for i := 0; i < o.Servers; i++ {
		inv.Servers = append(inv.Servers, g.server(i, o.Tools))
	}
	if o.Mutate > 0 {
		mutate(&inv, o.Mutate, o.Seed)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if o.Indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(&inv); err != nil {
		return nil, fmt.Errorf("encoding inventory: %w", err)
	}
	return buf.Bytes(), nil
}

// --- document model: struct field order is output order ---

type inventory struct {
	Servers []*server `json:"servers"`
}

type server struct {
	Name      string   `json:"name"`
	Transport string   `json:"transport"`
	Command   string   `json:"command,omitempty"`
	Args      []string `json:"args,omitempty"`
	Env       *object  `json:"env,omitempty"`
	URL       string   `json:"url,omitempty"`
	Tools     []*tool  `json:"tools"`
}

type tool struct {
	Name         string       `json:"name"`
	Title        string       `json:"title,omitempty"`
	Description  string       `json:"description"`
	InputSchema  *object      `json:"input_schema"`
	OutputSchema *object      `json:"output_schema,omitempty"`
	Annotations  *annotations `json:"annotations,omitempty"`
}

type annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// object is a JSON object that keeps its member order.
type object struct {
	keys []string
	vals []any
}

func (o *object) set(k string, v any) *object {
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
	return o
}

func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(o.vals[i])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// --- generation ---

type gen struct {
	r *rand.Rand
}

func (g *gen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }
func (g *gen) chance(p float64) bool   { return g.r.Float64() < p }
func (g *gen) between(lo, hi int) int  { return lo + g.r.IntN(hi-lo+1) }

func boolp(b bool) *bool { return &b }

func (g *gen) server(i, ntools int) *server {
	d := domains[i%len(domains)]
	s := &server{Name: fmt.Sprintf("%s-%s-%03d", d.name, g.pick(serverSuffixes), i)}
	switch i % 3 {
	case 0:
		s.Transport = "http"
		s.URL = fmt.Sprintf("https://mcp-%03d.%s.example.internal/mcp", i, d.name)
	case 1:
		s.Transport = "sse"
		s.URL = fmt.Sprintf("https://%s.example.com/sse/%03d", d.name, i)
	default:
		s.Transport = "stdio"
		// Launches pinned to exact versions, as a reviewed config has them.
		ver := fmt.Sprintf("%d.%d.%d", g.between(0, 4), g.between(0, 20), g.between(0, 9))
		switch g.r.IntN(4) {
		case 0:
			s.Command, s.Args = "npx", []string{"-y", "@example/mcp-" + d.name + "@" + ver}
		case 1:
			s.Command, s.Args = "uvx", []string{"mcp-" + d.name + "==" + ver}
		case 2:
			s.Command, s.Args = "node", []string{"/opt/mcp/" + d.name + "/dist/index.js"}
		default:
			s.Command, s.Args = "docker", []string{"run", "-i", "--rm", fmt.Sprintf("example/mcp-%s@sha256:%064x", d.name, g.r.Uint64())}
		}
		s.Env = (&object{}).set("LOG_LEVEL", g.pick([]string{"info", "warn", "debug"})).
			set(strings.ToUpper(d.name)+"_REGION", g.pick([]string{"eu-west-1", "us-east-2", "ap-south-1"}))
	}
	prefix := d.short + strconv.Itoa(i)
	seen := map[string]bool{}
	for len(s.Tools) < ntools {
		verb := verbs[g.r.IntN(len(verbs))]
		noun := g.pick(d.nouns)
		name := prefix + "_" + verb.name + "_" + noun
		if seen[name] {
			name += "_" + strconv.Itoa(len(s.Tools))
		}
		seen[name] = true
		s.Tools = append(s.Tools, g.tool(name, verb, noun, d))
	}
	return s
}

func (g *gen) tool(name string, v verb, noun string, d domain) *tool {
	t := &tool{
		Name:  name,
		Title: capitalise(v.name) + " " + strings.ReplaceAll(noun, "_", " "),
	}
	t.Description = g.description(v, noun, d)
	t.InputSchema = g.inputSchema(v, noun, d)
	if g.chance(0.25) {
		t.OutputSchema = g.outputSchema(noun, d)
	}
	if g.chance(0.8) {
		a := &annotations{ReadOnlyHint: boolp(v.readOnly), OpenWorldHint: boolp(g.chance(0.3))}
		if !v.readOnly {
			a.DestructiveHint = boolp(v.destructive)
			a.IdempotentHint = boolp(g.chance(0.5))
		}
		if g.chance(0.3) {
			a.Title = t.Title
		}
		t.Annotations = a
	}
	return t
}

// fill replaces {noun}, {anoun}, {nouns}, {field}, {system}, {unit} and
// {n} in a template.
func (g *gen) fill(tpl, noun string, d domain) string {
	n := strings.ReplaceAll(noun, "_", " ")
	r := strings.NewReplacer(
		"{noun}", n,
		"{anoun}", article(n)+" "+n,
		"{nouns}", plural(n),
		"{field}", g.pick(d.fields),
		"{system}", d.system,
		"{unit}", g.pick(units),
		"{n}", strconv.Itoa(g.between(2, 500)),
	)
	return r.Replace(tpl)
}

func (g *gen) description(v verb, noun string, d domain) string {
	// Lengths run from DescriptionMin to DescriptionMax characters,
	// shorter ones more common.
	target := min(g.between(DescriptionMin, DescriptionMax), g.between(DescriptionMin, DescriptionMax))
	var b strings.Builder
	b.WriteString(g.fill(g.pick(v.openers), noun, d))
	used := map[int]bool{}
	for b.Len() < target {
		var s string
		switch x := g.r.IntN(10); {
		case x < 2:
			s = g.pick(ruleWords)
		case x < 4:
			s = g.pick(d.sentences)
		default:
			k := g.r.IntN(len(general))
			if used[k] {
				continue
			}
			used[k] = true
			s = general[k]
		}
		s = g.fill(s, noun, d)
		if b.Len()+1+len(s) > DescriptionMax && b.Len() >= DescriptionMin {
			break
		}
		b.WriteByte(' ')
		b.WriteString(s)
	}
	return b.String()
}

func (g *gen) inputSchema(v verb, noun string, d domain) *object {
	props := &object{}
	var required []string
	// PropertiesMin to PropertiesMax properties, fewer more common.
	nprops := min(g.between(PropertiesMin, PropertiesMax), g.between(PropertiesMin, PropertiesMax))
	used := map[string]bool{}
	for len(props.keys) < nprops {
		p := g.property(d)
		if used[p.name] {
			continue
		}
		used[p.name] = true
		props.set(p.name, p.schema)
		if p.required {
			required = append(required, p.name)
		}
	}
	if g.chance(0.05) {
		props.set("filter", g.nestedFilter(d))
	}
	s := (&object{}).set("type", "object").set("properties", props)
	if len(required) > 0 {
		s.set("required", required)
	}
	if g.chance(0.6) {
		s.set("additionalProperties", false)
	}
	return s
}

type prop struct {
	name     string
	schema   *object
	required bool
}

func (g *gen) property(d domain) prop {
	switch g.r.IntN(7) {
	case 0:
		return prop{"limit", (&object{}).set("type", "integer").set("description", "Maximum items to return.").set("default", 50), false}
	case 1:
		return prop{"cursor", (&object{}).set("type", "string").set("description", "Cursor from the previous page."), false}
	case 2:
		f := g.pick(d.fields)
		return prop{"sort_by", (&object{}).set("type", "string").set("description", "Sort field.").
			set("enum", []string{f, "created_at", "updated_at"}).set("default", "updated_at"), false}
	case 3:
		return prop{"include_archived", (&object{}).set("type", "boolean").
			set("description", "Include archived records.").set("default", false), false}
	case 4:
		return prop{"format", (&object{}).set("type", "string").set("description", "Output format.").
			set("enum", []string{"json", "csv", "markdown"}).set("default", "json"), false}
	case 5:
		f := g.pick(d.fields)
		return prop{f, (&object{}).set("type", "string").
			set("description", "The "+strings.ReplaceAll(f, "_", " ")+" to match exactly."), true}
	default:
		return prop{"tags", (&object{}).set("type", "array").set("description", "Tags; all must match.").
			set("items", (&object{}).set("type", "string")), false}
	}
}

func (g *gen) nestedFilter(d domain) *object {
	f := g.pick(d.fields)
	cond := (&object{}).set("type", "object").set("properties", (&object{}).
		set("field", (&object{}).set("type", "string").set("enum", []string{f, "status", "owner"})).
		set("op", (&object{}).set("type", "string").set("enum", []string{"eq", "ne", "lt", "gt", "contains"}).set("default", "eq")).
		set("value", (&object{}).set("description", "Value to compare with; its type follows the field."))).
		set("required", []string{"field", "value"})
	return (&object{}).set("type", "object").set("description", "Structured filter; conditions are combined with the given mode.").
		set("properties", (&object{}).
			set("mode", (&object{}).set("type", "string").set("enum", []string{"all", "any"}).set("default", "all")).
			set("conditions", (&object{}).set("type", "array").set("items", cond).set("maxItems", 10)))
}

func (g *gen) outputSchema(noun string, d domain) *object {
	item := (&object{}).set("type", "object").set("properties", (&object{}).
		set("id", (&object{}).set("type", "string")).
		set(g.pick(d.fields), (&object{}).set("type", "string")).
		set("updated_at", (&object{}).set("type", "string").set("format", "date-time")))
	return (&object{}).set("type", "object").set("properties", (&object{}).
		set("items", (&object{}).set("type", "array").set("items", item)).
		set("next_cursor", (&object{}).set("type", []string{"string", "null"}).set("description", "Cursor for the next page, or null on the last page.")))
}

// mutate changes n descriptions spread over the inventory. The choice
// depends on the seed only, never on map order.
func mutate(inv *inventory, n int, seed uint64) {
	var all []*tool
	for _, s := range inv.Servers {
		all = append(all, s.Tools...)
	}
	r := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc909))
	picked := r.Perm(len(all))[:n]
	for k, i := range picked {
		t := all[i]
		switch k % 3 {
		case 0:
			t.Description += " " + injections[k/3%len(injections)]
		case 1:
			t.Description = strings.Replace(t.Description, ".", "; results are cached for 60 seconds.", 1)
		default:
			t.Description += " Deprecated: use the v2 endpoint where available."
		}
	}
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func plural(s string) string {
	switch {
	case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"), strings.HasSuffix(s, "sh"):
		return s + "es"
	case strings.HasSuffix(s, "y") && !strings.HasSuffix(s, "ey"):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an"
	}
	return "a"
}
