package canon

import (
	"bytes"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

func TestSourceEncoderIsTheTreePath(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{`{}`, true}, {`[]`, true}, {`{ "a" : [ 1.50, -0, "  x\u00e9 ", true, null, false, {} ], "b": {"c": 1e2} }`, true},
		{"{\n  \"description\": \"d\",\n  \"name\": \"\\u200bt\"\n}", true}, {`"\u3000s\t"`, true}, {`12345678901234567890`, true},
		{`{"b":1,"a":2}`, false}, {`{"a":1,"a":2}`, false}, {`{"a":1,}`, false}, {`[1,]`, false}, {`[1 2]`, false},
		{`{"a" 1}`, false}, {`nul`, false}, {`"\ud800"`, false}, {`1e400`, false}, {`NaN`, false}, {`{"a":tru}`, false},
	} {
		var e SourceEncoder
		end, ok := e.Encode(c.in, 0, 0)
		if ok != c.ok {
			t.Errorf("%s: ok %v, want %v", c.in, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		v, err := jsonv.Parse([]byte(c.in[:end]))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if end != len(c.in) || !bytes.Equal(e.Buf, Encode(&v)) {
			t.Errorf("%s: %s (end %d), tree path %s", c.in, e.Buf, end, Encode(&v))
		}
	}
}

func TestSourceEncoderDepth(t *testing.T) {
	deep := func(n int) string {
		return string(bytes.Repeat([]byte("["), n)) + string(bytes.Repeat([]byte("]"), n))
	}
	var e SourceEncoder
	if _, ok := e.Encode(deep(jsonv.MaxDepth), 0, 0); !ok {
		t.Error("MaxDepth levels refused")
	}
	if _, ok := e.Encode(deep(jsonv.MaxDepth+1), 0, 0); ok {
		t.Error("MaxDepth+1 levels accepted")
	}
	if _, ok := e.Encode(deep(jsonv.MaxDepth-3), 0, 3); !ok {
		t.Error("MaxDepth levels from depth 3 refused")
	}
	if _, ok := e.Encode(deep(jsonv.MaxDepth-2), 0, 3); ok {
		t.Error("MaxDepth+1 levels from depth 3 accepted")
	}
}

// FuzzSourceEncoder holds the streaming encoder to the tree path: what
// it accepts, jsonv.Parse accepts and Encode writes the same bytes for;
// and it accepts every indented canonical document (what a pin stores).
func FuzzSourceEncoder(f *testing.F) {
	for _, s := range []string{`{"a":[1.0,1e2,-0,-0.0," x "],"b":1}`, `{"Z":3,"\ufb33":1,"\ud83d\ude02":2}`, `[5e-324,1e22,123456789.125]`, `"\u001f a \u3000"`, `{"b":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var e SourceEncoder
		src := string(data)
		if end, ok := e.Encode(src, 0, 0); ok {
			v, err := jsonv.Parse(data[:end])
			if err != nil {
				t.Fatalf("accepted %q, which does not parse: %v", data[:end], err)
			}
			if c := Encode(&v); !bytes.Equal(e.Buf, c) {
				t.Fatalf("%q: %s, tree path %s", data[:end], e.Buf, c)
			}
			if v.Kind == jsonv.Object {
				if len(e.Top) != len(v.Members) {
					t.Fatalf("%d top members, tree has %d", len(e.Top), len(v.Members))
				}
				for i, m := range v.Members {
					if e.Top[i].Key != m.Key || e.Top[i].Off != m.Value.Off {
						t.Fatalf("top member %d: %+v, tree %q at %d", i, e.Top[i], m.Key, m.Value.Off)
					}
				}
			}
		}
		v, err := jsonv.Parse(data)
		if err != nil {
			return
		}
		for _, escape := range []func(rune) bool{nil, EscapeNonASCII} {
			ind := AppendIndent(nil, &v, 0, escape)
			end, ok := e.Encode(string(ind), 0, 0)
			if !ok || end != len(ind) {
				t.Fatalf("indented canonical text refused:\n%s", ind)
			}
			if c := Encode(&v); !bytes.Equal(e.Buf, c) {
				t.Fatalf("indented %s: %s, tree path %s", ind, e.Buf, c)
			}
		}
	})
}
