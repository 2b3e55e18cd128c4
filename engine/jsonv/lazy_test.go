package jsonv

import (
	"bytes"
	"testing"
)

func TestParseLazyLeavesTheMemberRaw(t *testing.T) {
	doc := []byte(`{"a": 1, "tools": [ {"x": "}\"]"}, [1, 2] ], "z": {"tools": []}}`)
	v, err := ParseLazy(doc, "tools")
	if err != nil {
		t.Fatal(err)
	}
	tv, _ := v.Get("tools")
	if tv.Kind != Raw || tv.Str != `[ {"x": "}\"]"}, [1, 2] ]` || doc[tv.Off] != '[' {
		t.Fatalf("tools: %+v", tv)
	}
	if len(tv.Items) != 2 || tv.Items[0].Str != `{"x": "}\"]"}` || tv.Items[1].Str != `[1, 2]` || doc[tv.Items[1].Off] != '[' {
		t.Fatalf("items: %+v", tv.Items)
	}
	for _, c := range []string{`{"tools": [1 2]}`, `{"tools": [1,]}`, `{"tools": {"a": 1}}`} {
		v, err := ParseLazy([]byte(c), "tools")
		if tv, _ := v.Get("tools"); err != nil || tv.Kind != Raw || tv.Items != nil {
			t.Errorf("%s: %+v %v", c, tv, err)
		}
	}
	if v, _ := ParseLazy([]byte(`{"tools": [ ]}`), "tools"); v.Members[0].Value.Items == nil {
		t.Error("an empty list has nil items")
	}
	// Only the root's member is left raw.
	z, _ := v.Get("z")
	if inner, _ := z.Get("tools"); inner.Kind != Array {
		t.Fatalf("nested tools: %v", inner.Kind)
	}
	// The rest is checked as Parse checks it.
	for _, bad := range []string{`{"tools": [], "a": 01}`, `{"tools": [], "tools": []}`, `{"tools": [}`, `{"tools": "abc}`} {
		if _, err := ParseLazy([]byte(bad), "tools"); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestReadersMatchParse(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{`"plain"`, true}, {`"é\u00e9\ud83d\ude80\n\"\\\/"`, true}, {`"\ud83d"`, false}, {`"\ude80"`, false},
		{`"\ud83dx"`, false}, {`"\ud83d\u0041"`, false}, {"\"\xff\"", false}, {"\"a\nb\"", false}, {`"\x"`, false},
		{`"abc`, false}, {`"\u12"`, false}, {"\"\xed\xa0\x80\"", false},
	} {
		s, end, ok := ReadString(c.in, 0)
		v, err := Parse([]byte(c.in))
		if ok != c.ok || ok != (err == nil) {
			t.Errorf("%q: ReadString ok %v, Parse %v, want %v", c.in, ok, err, c.ok)
			continue
		}
		if ok && (s != v.Str || end != len(c.in)) {
			t.Errorf("%q: %q end %d, Parse %q", c.in, s, end, v.Str)
		}
	}
	for _, c := range []string{"0", "-0", "12", "1.5", "1e3", "-1.5E-3", "01", "1.", "-", "1e", "1e999", "-x"} {
		lit, isFloat, end, ok := ReadNumber(c, 0)
		v, err := Parse([]byte(c))
		if ok != (err == nil) || (ok && (lit != v.Str || isFloat != v.Float || end != len(c))) {
			t.Errorf("%q: ReadNumber %q %v %d %v, Parse %+v %v", c, lit, isFloat, end, ok, v, err)
		}
	}
}

// FuzzLazy holds the lazy reader to Parse: a document Parse accepts,
// ParseLazy accepts with the same tree around the raw member, whose text
// parses to the member Parse built; and the token readers accept a
// token exactly when Parse does, with the same text.
func FuzzLazy(f *testing.F) {
	for _, s := range []string{`{"tools":[{"a":"b"}],"x":1}`, `{"tools":"\u00e9"}`, `{"tools":[1,2.5e3,true,null]}`, `"x\u00e9\ud83d\ude80"`, `-1.5e3`, `{"tools":[}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := string(data)
		if len(data) > 0 && data[0] == '"' {
			s, end, ok := ReadString(src, 0)
			b, end2, ok2 := DecodeString([]byte("p"), src, 0)
			if ok != ok2 || (ok && (end != end2 || "p"+s != string(b))) {
				t.Fatalf("ReadString %q %d %v, DecodeString %q %d %v", s, end, ok, b, end2, ok2)
			}
			if ok {
				v, err := Parse(data[:end])
				if err != nil || v.Kind != String || v.Str != s {
					t.Fatalf("ReadString accepts %q as %q; Parse: %+v %v", data[:end], s, v, err)
				}
			}
		}
		if len(data) > 0 && (data[0] == '-' || (data[0] >= '0' && data[0] <= '9')) {
			if lit, isFloat, end, ok := ReadNumber(src, 0); ok {
				v, err := Parse(data[:end])
				if err != nil || v.Kind != Number || v.Str != lit || v.Float != isFloat {
					t.Fatalf("ReadNumber accepts %q; Parse: %+v %v", data[:end], v, err)
				}
			}
		}
		if v, err := Parse(data); err == nil && v.Kind == String && data[0] == '"' {
			if _, end, ok := ReadString(src, 0); !ok || SkipSpace(src, end) != len(data) {
				t.Fatalf("Parse accepts %q, ReadString does not", data)
			}
		}
		full, err := Parse(data)
		if err != nil {
			return
		}
		lazy, err := ParseLazy(data, "tools")
		if err != nil {
			t.Fatalf("Parse accepts, ParseLazy: %v", err)
		}
		fv, has := full.Get("tools")
		lv, _ := lazy.Get("tools")
		if !has || full.Kind != Object {
			if !bytes.Equal(Append(nil, &full), Append(nil, &lazy)) {
				t.Fatal("no lazy member, yet the trees differ")
			}
			return
		}
		if lv.Kind != Raw || lv.Off != fv.Off {
			t.Fatalf("lazy member %+v, parsed one at %d", lv, fv.Off)
		}
		rv, err := Parse([]byte(lv.Str))
		if err != nil || !bytes.Equal(Append(nil, &rv), Append(nil, fv)) {
			t.Fatalf("raw text %q does not parse to the member: %v", lv.Str, err)
		}
		if lv.Items != nil {
			if fv.Kind != Array || len(lv.Items) != len(fv.Items) {
				t.Fatalf("%d raw items, the member has %d", len(lv.Items), len(fv.Items))
			}
			for i := range fv.Items {
				iv, err := Parse([]byte(lv.Items[i].Str))
				if err != nil || lv.Items[i].Off != fv.Items[i].Off || !bytes.Equal(Append(nil, &iv), Append(nil, &fv.Items[i])) {
					t.Fatalf("raw item %d %q is not the member's item: %v", i, lv.Items[i].Str, err)
				}
			}
		} else if fv.Kind == Array {
			t.Fatal("an array Parse accepts was not split into items")
		}
		if end, ok := Skip(src, fv.Off); !ok || end != fv.Off+len(lv.Str) {
			t.Fatalf("Skip ends at %d %v, the member at %d", end, ok, fv.Off+len(lv.Str))
		}
		*lv = *fv
		if !bytes.Equal(Append(nil, &full), Append(nil, &lazy)) {
			t.Fatal("the trees around the lazy member differ")
		}
	})
}
