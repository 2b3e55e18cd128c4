package pin

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// streamSamples are pins as Marshal writes them (both formats, servers
// and acceptances, every field a descriptor can have) and the pins in
// the repository.
func streamSamples(t testing.TB, servers, tools int) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for name, doc := range sampleInventories(t, servers, tools) {
		inv, err := inventory.Parse("inv.json", doc)
		if err != nil {
			t.Fatal(name, err)
		}
		for _, format := range []int{Format1, Format2} {
			p, err := Build(inv, format, Approval{By: "a@example.com", Note: "n", At: "2026-01-01T00:00:00Z"})
			if err != nil {
				t.Fatal(err)
			}
			if format == Format2 {
				p.Acceptances = []*Acceptance{{ID: "0123456789abcdef", Class: "TRANSPORT", Subject: "s", Hash: strings.Repeat("a", 64), Approval: Approval{By: "a", Note: "ok", At: "2026-01-01T00:00:00.5Z"}}}
			}
			out[fmt.Sprintf("%s-format%d", name, format)] = p.Marshal()
		}
	}
	for _, f := range []string{"../../testdata/reference/pin.json", "../../samples/pin.json"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = data
	}
	return out
}

// sampleInventories are bench/invgen's inventory and one with every
// odd value a descriptor can hold.
func sampleInventories(t testing.TB, servers, tools int) map[string][]byte {
	gen, err := invgen.Generate(invgen.Options{Servers: servers, Tools: tools, Seed: invgen.DefaultSeed})
	if err != nil {
		t.Fatal(err)
	}
	odd := []byte(`{"servers":[{"name":"s","transport":"stdio","command":"npx","args":["-y","p@1"],"env":{"K":"v"},"tools":[` +
		`{"name":" t\u200b ","title":"\u202eT","description":"a \"quoted\"\nline\u0007 \ud83d\ude80 ","inputSchema":{"type":"object","properties":{"n":{"type":"number","default":1.50,"minimum":-0,"maximum":1e300}}},"annotations":{"readOnlyHint":true,"x":null},"_meta":{"a":1}},` +
		`{"name":"u","description":"","inputSchema":{},"outputSchema":{"z":[],"a":[1,2.5e-7,{"b":{}}]},"icons":[{"src":"data:x"}]}]}]}`)
	return map[string][]byte{"invgen": gen, "odd": odd}
}

// samePin reports how two pins differ, or "".
func samePin(a, b *Pin) string {
	if !bytes.Equal(a.Marshal(), b.Marshal()) {
		return "Marshal differs"
	}
	if len(a.Tools) != len(b.Tools) || len(a.Servers) != len(b.Servers) || len(a.Acceptances) != len(b.Acceptances) {
		return "entry counts differ"
	}
	for i, x := range a.Tools {
		y := b.Tools[i]
		if x.Key != y.Key || x.Server != y.Server || x.Name != y.Name || x.Hash != y.Hash || x.Approval != y.Approval {
			return fmt.Sprintf("tool %d: %+v vs %+v", i, x.Approval, y.Approval)
		}
		if b.Tool(x.Key) != y || a.Tool(x.Key) != x {
			return "index differs"
		}
		dx, dy := x.Descriptor(), y.Descriptor()
		if !bytes.Equal(jsonv.Append(nil, dx), jsonv.Append(nil, dy)) || !bytes.Equal(canon.Encode(dx), canon.Encode(dy)) {
			return fmt.Sprintf("tool %s: descriptors differ", x.Key)
		}
		if canon.Hash(canon.Encode(dx)) != x.Hash {
			return fmt.Sprintf("tool %s: descriptor does not hash to the entry's hash", x.Key)
		}
	}
	return ""
}

// The stream reader reads every pin Marshal writes (it is the path a
// real pin takes) and builds what the tree reader builds.
func TestStreamReadsWhatMarshalWrites(t *testing.T) {
	for name, data := range streamSamples(t, 6, 20) {
		want, err := loadTree(name, data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, ok := loadStream(name, string(data))
		if !ok {
			t.Fatalf("%s: the stream reader refused it", name)
		}
		if ls, err := LoadString(name, string(data)); err != nil {
			t.Fatalf("%s: LoadString: %v", name, err)
		} else if d := samePin(ls, want); d != "" {
			t.Fatalf("%s: LoadString: %s", name, d)
		}
		if got.Tools[0].desc.Load() != nil {
			t.Errorf("%s: a descriptor was parsed before it was asked for", name)
		}
		if d := samePin(got, want); d != "" {
			t.Fatalf("%s: %s", name, d)
		}
	}
}

// Anything the stream reader does not accept goes to the tree reader,
// so a broken pin's error is the tree reader's, word for word.
func TestStreamRefusalsKeepTheTreeReadersErrors(t *testing.T) {
	data := streamSamples(t, 6, 20)["invgen-format2"]
	hash := func(d []byte) string { // the first tool's hash
		d = d[bytes.Index(d, []byte(`"tools": [`)):]
		i := bytes.Index(d, []byte(`"hash": "`))
		return string(d[i+9 : i+9+64])
	}
	h := hash(data)
	for _, c := range []struct{ name, old, new string }{
		{"a descriptor edited", `"description": "`, `"description": "x`},
		{"a hash edited", `"hash": "` + h, `"hash": "` + strings.Repeat("0", 64)},
		{"digest not the hash prefix", `"digest": "` + h[:12], `"digest": "` + strings.Repeat("0", 12)},
		{"unsorted descriptor keys, same hash", `"description"`, `"zzz": 1, "description"`},
		{"a duplicate key in a descriptor", `"input_schema": {`, `"name": "x", "input_schema": {`},
		{"a syntax error in a descriptor", `"input_schema": {`, `"input_schema": {,`},
		{"invalid UTF-8 in a descriptor", `"description": "`, "\"description\": \"\xff"},
		{"a non-string entry field", `"approved_note": "n"`, `"approved_note": 1`},
		{"a trailing comma in the tool list", "\n    }\n  ]\n}", "\n    },\n  ]\n}"},
		{"a bad approval time", `"approved_at": "2026-01-01T00:00:00Z",` + "\n      \"approved_by\"", `"approved_at": "2026-01-01",` + "\n      \"approved_by\""},
	} {
		bad := bytes.Replace(data, []byte(c.old), []byte(c.new), 1)
		if bytes.Equal(bad, data) {
			t.Fatalf("%s: no change", c.name)
		}
		if _, ok := loadStream("p.json", string(bad)); ok {
			t.Errorf("%s: the stream reader accepted it", c.name)
		}
		_, want := loadTree("p.json", bad)
		_, got := Load("p.json", bad)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s: Load says %v, the tree reader %v", c.name, got, want)
		}
		if _, got := LoadString("p.json", string(bad)); got == nil || want == nil || got.Error() != want.Error() {
			t.Errorf("%s: LoadString says %v, the tree reader %v", c.name, got, want)
		}
	}
	// A hand-edited pin the stream reader does not take (keys out of
	// order, other whitespace) but which verifies loads as ever, through
	// the tree reader.
	dp := diffPin(t)
	dp.Acceptances = nil
	one := dp.Marshal()
	edited := bytes.Replace(one, []byte("\"description\": \"Adds numbers.\",\n        \"input_schema\": {},\n        \"name\": \"t\""),
		[]byte(`"name": "t", "input_schema": { }, "description": "Adds numbers."`), 1)
	if bytes.Equal(edited, one) {
		t.Fatal("no change")
	}
	if _, ok := loadStream("p.json", string(edited)); ok {
		t.Error("the stream reader accepted unsorted keys")
	}
	if _, err := LoadString("p.json", string(edited)); err != nil {
		t.Fatalf("LoadString: %v", err)
	}
	p, err := Load("p.json", edited)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := Load("p.json", one); samePin(p, want) != "" {
		t.Fatal(samePin(p, want))
	}
}

// FuzzLoadStream holds the stream reader to the tree reader: a pin it
// accepts, the tree reader accepts with the same result; and a pin as
// Marshal writes it, it accepts.
func FuzzLoadStream(f *testing.F) {
	for _, data := range streamSamples(f, 2, 2) {
		if len(data) < 16<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werr := loadTree("p.json", data)
		got, ok := loadStream("p.json", string(data))
		if ok {
			if werr != nil {
				t.Fatalf("the stream reader accepts a pin the tree reader refuses: %v", werr)
			}
			if d := samePin(got, want); d != "" {
				t.Fatal(d)
			}
		}
		if werr == nil {
			out := want.Marshal()
			again, ok := loadStream("p.json", string(out))
			if !ok {
				t.Fatalf("the stream reader refuses a pin Marshal wrote:\n%s", out)
			}
			if d := samePin(again, want); d != "" {
				t.Fatal(d)
			}
		}
	})
}

// A loaded pin's descriptors are parsed on first use, once, from any
// number of goroutines (a pin is read concurrently).
func TestDescriptorOnFirstUseIsShared(t *testing.T) {
	p, err := Load("p.json", streamSamples(t, 1, 2)["invgen-format2"])
	if err != nil {
		t.Fatal(err)
	}
	tool := p.Tools[0]
	got := make([]*jsonv.Value, 8)
	done := make(chan int)
	for i := range got {
		go func() { got[i] = tool.Descriptor(); done <- i }()
	}
	for range got {
		<-done
	}
	for _, d := range got {
		if d != got[0] || d.Kind != jsonv.Object {
			t.Fatal("goroutines got different descriptors")
		}
	}
	if canon.Hash(canon.Encode(got[0])) != tool.Hash {
		t.Fatal("the parsed descriptor does not hash to the entry's hash")
	}
}

// marshalTree is the pin document written the plain way, as Marshal
// once wrote it: the whole document as one tree, through AppendIndent.
func marshalTree(t *testing.T, p *Pin) []byte {
	t.Helper()
	q := *p
	q.Tools = nil
	doc, err := jsonv.Parse(q.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	tools := jsonv.Value{Kind: jsonv.Array, Items: []jsonv.Value{}}
	for _, x := range p.sorted().Tools {
		o := newObj().set("approved_by", str(x.By)).set("approved_note", str(x.Note)).
			set("descriptor", *x.Descriptor()).set("digest", str(x.Hash[:12])).set("hash", str(x.Hash)).
			set("key", str(x.Key)).set("name", str(x.Name)).set("server", str(x.Server))
		if p.Format >= Format2 {
			o.set("approved_at", str(x.At))
		}
		tools.Items = append(tools.Items, o.v)
	}
	tv, _ := doc.Get("tools")
	*tv = tools
	var escape func(rune) bool
	if p.Format >= Format2 {
		escape = pinEscape
	}
	return append(canon.AppendIndent(nil, &doc, 0, escape), '\n')
}

// Marshal writes, for every kind of entry (built, loaded by either
// reader, its tree parsed or not) and whether its estimate holds or not,
// the bytes the document's tree gives.
func TestMarshalIsTheDocumentTree(t *testing.T) {
	pins := map[string]*Pin{}
	for name, doc := range sampleInventories(t, 12, 50) {
		inv, err := inventory.Parse("inv.json", doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []int{Format1, Format2} {
			built, err := Build(inv, format, Approval{By: "a", Note: "n", At: "2026-01-01T00:00:00Z"})
			if err != nil {
				t.Fatal(err)
			}
			pins[fmt.Sprintf("%s-%d built", name, format)] = built
			small, _ := Build(inv, format, Approval{By: "a", Note: "n", At: "2026-01-01T00:00:00Z"})
			for _, x := range small.Tools {
				x.size = 0 // no estimate: every range outgrows its region
			}
			pins[fmt.Sprintf("%s-%d built, no estimate", name, format)] = small
		}
	}
	for name, data := range streamSamples(t, 6, 20) {
		pins[name+" tree"] = mustTree(t, name, data)
		streamed, err := Load(name, data)
		if err != nil {
			t.Fatal(err)
		}
		pins[name+" stream"] = streamed
		half, _ := Load(name, data)
		for i := 0; i < len(half.Tools); i += 2 {
			half.Tools[i].Descriptor()
		}
		pins[name+" half parsed"] = half
	}
	for name, p := range pins {
		want := marshalTree(t, p)
		if got := p.Marshal(); !bytes.Equal(got, want) {
			t.Fatalf("%s: Marshal differs from the document tree", name)
		}
	}
}

func mustTree(t *testing.T, name string, data []byte) *Pin {
	p, err := loadTree(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A Hasher reused across tools gives each tool Describe's hash.
func TestHasherIsDescribe(t *testing.T) {
	for name, doc := range sampleInventories(t, 2, 20) {
		inv, err := inventory.Parse("inv.json", doc)
		if err != nil {
			t.Fatal(err)
		}
		var h Hasher
		for _, format := range []int{Format1, Format2} {
			for _, tool := range inv.Tools() {
				if got, want := h.Hash(tool, format, DefaultExclude()), Describe(tool, format, DefaultExclude()).Hash; got != want {
					t.Fatalf("%s %s format %d: %s, Describe %s", name, tool.Key(), format, got, want)
				}
			}
		}
	}
}

// A large pin that does not verify is read on several workers: the one
// that meets the bad entry stops them all, and those stopped before the
// end of their range return nothing half-read (they took an unread
// entry's empty key apart, and panicked, before). Its error is the tree
// reader's.
func TestStreamStopsEveryWorkerOnABadEntry(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	data := streamSamples(t, 40, 40)["invgen-format2"]
	if n := bytes.Count(data, []byte(`"key": "`)); workers(n) < 2 {
		t.Fatalf("%d entries are read by %d worker", n, workers(n))
	}
	i := bytes.Index(data, []byte(`"tools": [`))
	j := i + bytes.Index(data[i:], []byte(`"description": "`))
	bad := slices.Concat(data[:j], []byte(`"description": "x`), data[j+len(`"description": "`):])
	for range 20 {
		if _, ok := loadStream("p.json", string(bad)); ok {
			t.Fatal("the stream reader accepted an edited descriptor")
		}
	}
	_, want := loadTree("p.json", bad)
	if _, err := Load("p.json", bad); want == nil || err == nil || err.Error() != want.Error() {
		t.Fatalf("Load says %v, the tree reader %v", err, want)
	}
	if _, err := LoadString("p.json", string(bad)); want == nil || err == nil || err.Error() != want.Error() {
		t.Fatalf("LoadString says %v, the tree reader %v", err, want)
	}
}
