package jsonv

import (
	"strings"
	"testing"
)

func TestParseRejectsHostileInput(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	tests := []struct {
		name, in, want string
	}{
		{"invalid UTF-8", "{\"a\":\"\xff\"}", "invalid UTF-8 byte 0xff"},
		{"invalid UTF-8 after escape", "{\"a\":\"\\n\xc3\"}", "invalid UTF-8 byte 0xc3"},
		{"lone high surrogate", `{"a":"\ud800"}`, `lone surrogate escape \ud800`},
		{"lone low surrogate", `{"a":"x\udc00"}`, `lone surrogate escape \udc00`},
		{"high then non-low", `{"a":"\ud800\u0041"}`, `lone surrogate escape \ud800`},
		{"NaN", `{"a":NaN}`, "NaN is not a JSON number"},
		{"Infinity", `[Infinity]`, "Infinity is not a JSON number"},
		{"-Infinity", `[-Infinity]`, "-Infinity is not a JSON number"},
		{"float overflow", `[1e400]`, "outside the range of a 64-bit float"},
		{"duplicate key", "{\"a\":1,\n\"a\":2}", `duplicate key "a" (first at line 1)`},
		{"duplicate key in big object", `{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":0,"k11":0,"k12":0,"k13":0,"k14":0,"k15":0,"k16":0,"k3":1}`, `duplicate key "k3"`},
		{"too deep", deep, "nesting deeper than 128 levels"},
		{"trailing data", `{} {}`, "unexpected data after the top-level value"},
		{"trailing comma in array", `[1,]`, "trailing comma before ']'"},
		{"trailing comma in object", `{"a":1,}`, "trailing comma before '}'"},
		{"truncated", `{"servers": [`, "unexpected end of input"},
		{"empty", ``, "empty document"},
		{"raw control char", "[\"a\tb\"]", "control character 0x09 in string must be escaped"},
		{"leading zero", `[01]`, "leading zero"},
		{"bad escape", `["\q"]`, `invalid escape \q`},
		{"single quotes", `{'a':1}`, "expected a string key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil {
				t.Fatalf("accepted %q", tt.in)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestErrorNamesPathAndPosition(t *testing.T) {
	_, err := Parse([]byte("{\"servers\": [\n  {\"name\": \"a\", \"tools\": [\n    {\"name\": \"\\ud800\"}]}]}"))
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("got %T %v", err, err)
	}
	if e.Path != "$.servers[0].tools[0].name" || e.Line != 3 || e.Col != 15 {
		t.Fatalf("got path %s line %d col %d", e.Path, e.Line, e.Col)
	}
}

func TestParseKeepsLiteralsAndOrder(t *testing.T) {
	v, err := Parse([]byte(`{"b":12345678901234567890,"a":[1.50,"\u00e9\ud83d\ude80",true,null]}`))
	if err != nil {
		t.Fatal(err)
	}
	if v.Members[0].Key != "b" || v.Members[0].Value.Str != "12345678901234567890" || v.Members[0].Value.Float {
		t.Fatalf("integer literal not kept: %+v", v.Members[0])
	}
	a := v.Members[1].Value
	if a.Items[0].Str != "1.50" || !a.Items[0].Float || a.Items[1].Str != "é🚀" || !a.Items[2].Bool || a.Items[3].Kind != Null {
		t.Fatalf("array not kept: %+v", a)
	}
}

func TestBOMSkipped(t *testing.T) {
	if _, err := Parse([]byte("\xef\xbb\xbf{}")); err != nil {
		t.Fatal(err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2.5e3,"x\u00e9",true,null]}`, `{"a":"\ud83d\ude80"}`, `[`, `{"a":1,"a":2}`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		_ = v
	})
}

func TestLinesAgreesWithPosition(t *testing.T) {
	for _, doc := range []string{"{\n  \"a\": [1,\n2],\r\n\n \"b\": \"x\"}\n", "", "\n", "x", "\n\n\nx\n"} {
		linesAgree(t, []byte(doc))
	}
}

// FuzzLines holds NewLines and NewLinesString to Position at every
// offset (and past both ends).
func FuzzLines(f *testing.F) {
	f.Add([]byte("{\n  \"a\": [1,\n2],\r\n\n \"b\": \"x\"}\n"))
	f.Add([]byte("\n"))
	f.Fuzz(func(t *testing.T, data []byte) { linesAgree(t, data) })
}

func linesAgree(t *testing.T, data []byte) {
	t.Helper()
	l, ls := NewLines(data), NewLinesString(string(data))
	for off := -2; off <= len(data)+2; off++ {
		l1, c1 := Position(data, off)
		l2, c2 := l.Position(off)
		l3, c3 := ls.Position(off)
		if l1 != l2 || c1 != c2 || l1 != l3 || c1 != c3 {
			t.Fatalf("%q offset %d: Position %d:%d, Lines %d:%d, NewLinesString %d:%d", data, off, l1, c1, l2, c2, l3, c3)
		}
	}
}

func TestCountContainers(t *testing.T) {
	for _, tc := range []struct {
		in        string
		limit     int
		n, offset int
	}{
		{`{"a": [1, {"b": "[{"}], "c": "\"{"}`, 0, 3, -1},
		{"// {[\n{/* [ */ \"x\": []}", 0, 2, -1},
		{`[{},{},{}]`, 2, 3, 4},
		{``, 0, 0, -1},
	} {
		n, off := CountContainers([]byte(tc.in), tc.limit)
		if n != tc.n || off != tc.offset {
			t.Errorf("CountContainers(%q, %d) = %d, %d; want %d, %d", tc.in, tc.limit, n, off, tc.n, tc.offset)
		}
	}
}
