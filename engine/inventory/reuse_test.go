package inventory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
	"github.com/descriptorpin/descriptorpin/engine"
)

// reparse is what the service does with a Reuser: Update, and Parse when
// Update declines. It reports whether Update reused the last parse.
func reparse(r *Reuser, file string, data []byte) (*engine.Inventory, bool, error) {
	if inv, ok := r.Update(file, data); ok {
		return inv, true, nil
	}
	inv, err := r.Parse(file, data)
	return inv, false, err
}

// checkSame fails the test unless the Reuser's result for data is what a
// fresh Parse gives: the same inventory, every offset, line and path
// included, or the same error.
func checkSame(t *testing.T, r *Reuser, step string, data []byte) bool {
	t.Helper()
	want, werr := Parse("f.json", data)
	got, reused, gerr := reparse(r, "f.json", data)
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("%s: error %v, want %v", step, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s (reused %v): the inventory differs from a fresh parse\n got %s\nwant %s", step, reused, dump(got), dump(want))
	}
	return reused
}

func dump(inv *engine.Inventory) string {
	if inv == nil {
		return "nil"
	}
	var b strings.Builder
	for _, s := range inv.Servers {
		fmt.Fprintf(&b, "[%s %s line %d:", s.Name, s.Path, s.Line)
		for _, t := range s.Tools {
			fmt.Fprintf(&b, " %s %s %d off %d;", t.Name, t.Path, t.Line, t.Raw.Off)
		}
		b.WriteString("] ")
	}
	return b.String()
}

func benchDoc(t testing.TB, servers, tools, mutate int, indent bool) []byte {
	t.Helper()
	d, err := invgen.Generate(invgen.Options{Servers: servers, Tools: tools, Seed: invgen.DefaultSeed, Mutate: mutate})
	if err != nil {
		t.Fatal(err)
	}
	if indent {
		var b bytes.Buffer
		if err := json.Indent(&b, d, "", "  "); err != nil {
			t.Fatal(err)
		}
		d = b.Bytes()
	}
	return d
}

// TestReuseOneToolChange: the change the service sees most, one tool's
// description edited back and forth in a large file, is read in parts
// and gives what a full parse gives, compact and indented.
func TestReuseOneToolChange(t *testing.T) {
	for _, indent := range []bool{false, true} {
		clean, changed := benchDoc(t, 20, 10, 0, indent), benchDoc(t, 20, 10, 1, indent)
		var r Reuser
		checkSame(t, &r, "first", clean)
		for i := range 4 {
			doc := [][]byte{changed, clean}[i%2]
			if !checkSame(t, &r, fmt.Sprintf("indent %v change %d", indent, i), doc) {
				t.Errorf("indent %v change %d: parsed in full, want the servers reused", indent, i)
			}
		}
	}
}

// TestReuseEdits walks a series of edits of every kind (servers added,
// removed, moved, renamed, lines added, root members, invalid versions,
// errors only the whole file shows) and checks each result against a
// fresh parse.
func TestReuseEdits(t *testing.T) {
	srv := func(name string, tools ...string) string {
		var ts []string
		for _, tn := range tools {
			ts = append(ts, fmt.Sprintf(`{"name": %q, "description": "Does %s.", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}}`, tn, tn))
		}
		return fmt.Sprintf(`{"name": %q, "transport": "http", "url": "https://x.test/%s", "tools": [%s]}`, name, name, strings.Join(ts, ",\n   "))
	}
	doc := func(servers ...string) string {
		return "{\"version\": 1, \"servers\": [\n  " + strings.Join(servers, ",\n  ") + "\n]}\n"
	}
	a, b, c := srv("a", "t1", "t2"), srv("b", "u1"), srv("c", "v1", "v2", "v3")
	a2 := strings.Replace(a, "Does t1.", "Does t1, and\\nthen more.", 1)
	steps := []struct{ name, doc string }{
		{"start", doc(a, b, c)},
		{"same bytes", doc(a, b, c)},
		{"a tool of the first server", doc(a2, b, c)},
		{"back", doc(a, b, c)},
		{"a tool of the last server", doc(a, b, strings.Replace(c, "v2", "v22", 2))},
		{"a server added in the middle", doc(a, srv("m", "w"), b, c)},
		{"added at the end", doc(a, srv("m", "w"), b, c, srv("z", "q"))},
		{"removed", doc(a, b, c, srv("z", "q"))},
		{"the first removed", doc(b, c, srv("z", "q"))},
		{"moved", doc(c, b, srv("z", "q"))},
		{"lines added inside a server", doc(c, strings.Replace(b, `"tools"`, "\n\n\"tools\"", 1), srv("z", "q"))},
		{"blanks between servers", doc(c, b+"  \n ", srv("z", "q"))},
		{"a root member changed", strings.Replace(doc(a, b, c), `"version": 1`, `"version": 2`, 1)},
		{"a root member after the list", strings.TrimSuffix(doc(a, b, c), "}\n") + `, "note": "x"}`},
		{"a server edited before it", strings.TrimSuffix(doc(a2, b, c), "}\n") + `, "note": "x"}`},
		{"a duplicate server name", doc(a, b, strings.Replace(c, `"name": "c"`, `"name": "a"`, 1))},
		{"good again", doc(a, b, c)},
		{"a syntax error", doc(a, b, c[:len(c)-1])},
		{"a bad tool", doc(a, strings.Replace(b, `"description": "Does u1."`, `"description": 3`, 1), c)},
		{"good again", doc(a, b, c)},
		{"an ambiguous key", doc(a, srv("b/x", "y"), srv("b", "x/y"))},
		{"slashes without ambiguity", doc(a, srv("b/x", "y"), srv("b", "z/y"))},
		{"a duplicate key in a server", doc(a, strings.Replace(b, `"transport": "http"`, `"transport": "http", "transport": "sse"`, 1), c)},
		{"instructions", doc(a, strings.Replace(b, `"transport"`, `"instructions": "Be careful.", "transport"`, 1), c)},
		{"instructions moved", doc(srv("n", "x"), a, strings.Replace(b, `"transport"`, `"instructions": "Be careful.", "transport"`, 1), c)},
		{"the servers list emptied", doc()},
		{"one server", doc(a)},
		{"the servers list is not a list", `{"servers": {"a": 1}}`},
		{"a server that is not an object", doc(a, `"b"`, c)},
		{"good again", doc(a, b, c)},
		{"two servers where one was", doc(a, b+", "+srv("d", "x"), c)},
		{"a server split by a comma", doc(a, strings.Replace(b, `"url"`, `"url": "x"}, {"name": "e", "x"`, 1), c)},
		{"an unclosed list in a server", doc(a, strings.Replace(b, `"tools": [`, `"tools": [[`, 1), c)},
		{"the list closed inside a server", doc(a, strings.Replace(b, `"tools": [`, `"tools": []}], "other": [{"tools": [`, 1), c)},
	}
	var r Reuser
	for _, s := range steps {
		checkSame(t, &r, s.name, []byte(s.doc))
	}
}

// TestReuseCap: Update declines a version with more objects and arrays
// than MaxContainers, before parsing, so the caller's cap reports it.
func TestReuseCap(t *testing.T) {
	base := []byte(`{"servers": [{"name": "a", "tools": []}, {"name": "b", "tools": []}]}`)
	r := Reuser{MaxContainers: 7}
	if _, err := r.Parse("f.json", base); err != nil {
		t.Fatal(err)
	}
	more := []byte(`{"servers": [{"name": "a", "tools": [{"name": "x"}]}, {"name": "b", "tools": []}]}`)
	if _, ok := r.Update("f.json", more); !ok {
		t.Fatal("declined a version at the cap")
	}
	over := []byte(`{"servers": [{"name": "a", "tools": [{"name": "x"}, {"name": "y"}]}, {"name": "b", "tools": []}]}`)
	if _, ok := r.Update("f.json", over); ok {
		t.Fatal("accepted a version over the cap")
	}
}

// FuzzReuse: an edit of a good version (bytes deleted and inserted at
// any place, twice) is read by the Reuser as a fresh parse reads it.
func FuzzReuse(f *testing.F) {
	bases := [][]byte{
		benchDoc(f, 4, 3, 0, false),
		benchDoc(f, 4, 3, 1, true),
		[]byte(`{"servers": [{"name": "a", "tools": [{"name": "t", "description": "d"}]}, {"name": "b", "instructions": "i", "tools": []}, {"name": "c"}], "x": [1, {"y": null}]}`),
	}
	f.Add(uint8(0), uint32(500), uint16(3), []byte("xyz"), uint32(900), uint16(0), []byte(""))
	f.Add(uint8(1), uint32(1200), uint16(1), []byte("\n"), uint32(40), uint16(2), []byte("}, {"))
	f.Add(uint8(2), uint32(60), uint16(0), []byte(`{"name": "d"}, `), uint32(20), uint16(1), []byte("u"))
	f.Add(uint8(2), uint32(14), uint16(70), []byte(""), uint32(0), uint16(0), []byte(""))
	f.Fuzz(func(t *testing.T, which uint8, at1 uint32, del1 uint16, ins1 []byte, at2 uint32, del2 uint16, ins2 []byte) {
		base := bases[int(which)%len(bases)]
		var r Reuser
		if _, err := r.Parse("f.json", base); err != nil {
			t.Fatal(err)
		}
		doc := edit(base, at1, del1, ins1)
		checkSame(t, &r, "first edit", doc)
		checkSame(t, &r, "second edit", edit(doc, at2, del2, ins2))
		checkSame(t, &r, "back", base)
	})
}

func edit(doc []byte, at uint32, del uint16, ins []byte) []byte {
	i := int(at) % (len(doc) + 1)
	j := min(i+int(del), len(doc))
	out := append([]byte{}, doc[:i]...)
	out = append(out, ins...)
	return append(out, doc[j:]...)
}

// BenchmarkReuse: a one-tool change of the service bench's 1,000-tool
// file (20 x 50), read by Update, against Parse of the whole file.
func BenchmarkReuse(b *testing.B) {
	clean, changed := benchDoc(b, 20, 50, 0, false), benchDoc(b, 20, 50, 1, false)
	docs := [][]byte{changed, clean}
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(clean)))
		i := 0
		for b.Loop() {
			if _, err := Parse("f.json", docs[i%2]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("update", func(b *testing.B) {
		var r Reuser
		if _, err := r.Parse("f.json", clean); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.SetBytes(int64(len(clean)))
		i := 0
		for b.Loop() {
			if _, ok := r.Update("f.json", docs[i%2]); !ok {
				b.Fatal("declined")
			}
			i++
		}
	})
}
