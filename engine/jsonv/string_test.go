package jsonv

import (
	"reflect"
	"testing"
)

// stringCases are documents for the string reader: every error of the
// parser, and trees with every kind of value.
var stringCases = []string{
	`{}`, `[]`, `  {"a": [1, 2.5e3, -0, "x\u00e9", true, false, null]}  `,
	"\xef\xbb\xbf{\"bom\": 1}", `{"a":"\ud83d\ude80 \" \\ \/ \b\f\n\r\t"}`, "\"caf\xc3\xa9\"",
	`{"tools": [{"x": "}\"]"}, [1, 2]], "z": {"tools": []}}`, `{"tools": [1 2]}`, `{"tools": {"a": 1}}`,
	``, ` `, `[`, `{`, `{"a"`, `{"a":`, `{"a":1`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{1: 2}`,
	`{"a":1,"a":2}`, `01`, `-`, `1.`, `1e`, `1e+`, `.5`, `1e999`, `NaN`, `Infinity`, `-Infinity`,
	`tru`, `nul`, `"abc`, "\"\xff\"", "\"a\xe9b\"", "\"\x01\"", `"\x"`, `"\u12"`, `"\ud800"`, `"\udc00"`,
	`"\ud800\u0041"`, `{"a":[[[[]]]]} x`, "[\n1,\n2,\n@]", `{"tools": [}`, `{"tools": "abc}`,
}

// TestStringReaderIsTheByteReader: Parse and ParseLazy, which now read
// their document as a string, and ParseString and ParseLazyString,
// build the tree and the error the byte reader built.
func TestStringReaderIsTheByteReader(t *testing.T) {
	for _, c := range stringCases {
		sameAsBytes(t, []byte(c))
	}
}

func FuzzStringReader(f *testing.F) {
	for _, c := range stringCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameAsBytes(t, data) })
}

func sameAsBytes(t *testing.T, data []byte) {
	t.Helper()
	want, werr := byteParse(data)
	for name, got := range map[string]func() (Value, error){
		"Parse":       func() (Value, error) { return Parse(data) },
		"ParseString": func() (Value, error) { return ParseString(string(data)) },
	} {
		v, err := got()
		if !reflect.DeepEqual(v, want) || !reflect.DeepEqual(err, werr) {
			t.Fatalf("%s(%q) = %+v, %v; the byte reader: %+v, %v", name, data, v, err, want, werr)
		}
	}
	want, werr = byteParseLazy(data, "tools")
	for name, got := range map[string]func() (Value, error){
		"ParseLazy":       func() (Value, error) { return ParseLazy(data, "tools") },
		"ParseLazyString": func() (Value, error) { return ParseLazyString(string(data), "tools") },
	} {
		v, err := got()
		if !reflect.DeepEqual(v, want) || !reflect.DeepEqual(err, werr) {
			t.Fatalf("%s(%q) = %+v, %v; the byte reader: %+v, %v", name, data, v, err, want, werr)
		}
	}
}
