package canon

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

func TestPyFloatRepr(t *testing.T) {
	tests := map[float64]string{
		1: "1.0", 100: "100.0", 1e16: "1e+16", 1e15: "1000000000000000.0", 1e-5: "1e-05",
		0.0001: "0.0001", 0.1: "0.1", 1.5e300: "1.5e+300", 123456789.125: "123456789.125",
		1e22: "1e+22", 5e-324: "5e-324", 0.0025: "0.0025", -2.5: "-2.5", math.Copysign(0, -1): "-0.0",
		0: "0.0", 1234567890123456.7: "1234567890123456.8", 12345678901234567.0: "1.2345678901234568e+16",
		math.MaxFloat64: "1.7976931348623157e+308", -1e-7: "-1e-07",
	}
	for f, want := range tests {
		if got := string(AppendPyFloat(nil, f)); got != want {
			t.Errorf("%v: got %s, want %s", f, got, want)
		}
	}
}

func TestStripPythonWhitespace(t *testing.T) {
	tests := map[string]string{
		"\x1c\x1d\x1e\x1f\u0085\u00a0\u2000\u200a\u2028\u2029\u3000kept\u3000\x1f": "kept",
		"\u200bzw\ufeff": "\u200bzw\ufeff",
		" a b ":          "a b",
		"\t\n\v\f\r":     "",
		"\u1680x\u202f":  "x",
	}
	for in, want := range tests {
		if got := Strip(in); got != want {
			t.Errorf("Strip(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapesOnlyWhatPythonEscapes(t *testing.T) {
	got := string(AppendString(nil, "a\x01b\x1bc\x7fd\"e\\f/g\bh\fi<>&\u2028"))
	want := `"a\u0001b\u001bc` + "\x7f" + `d\"e\\f/g\bh\fi<>&` + "\u2028" + `"`
	if got != want {
		t.Fatalf("got %s want %s", got, want)
	}
}

func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1.0,1e2,-0,-0.0," x "]}`, `{"\ufb33":1,"\ud83d\ude02":2,"Z":3}`, `[5e-324,1e22,123456789.125]`, `"\u001f a \u3000"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonv.Parse(data)
		if err != nil {
			return
		}
		c1 := Encode(&v)
		v2, err := jsonv.Parse(c1)
		if err != nil {
			t.Fatalf("canonical output does not parse: %v\n%s", err, c1)
		}
		c2 := Encode(&v2)
		if !bytes.Equal(c1, c2) {
			t.Fatalf("not idempotent:\n%s\n%s", c1, c2)
		}
		// Floats round-trip to the same value.
		if v.Kind == jsonv.Number && v.Float {
			a, _ := strconv.ParseFloat(v.Str, 64)
			b, _ := strconv.ParseFloat(string(c1), 64)
			if a != b {
				t.Fatalf("float %s became %s", v.Str, c1)
			}
		}
		// Indented form parses back to the same canonical form.
		ind := AppendIndent(nil, &v2, 0, EscapeNonASCII)
		v3, err := jsonv.Parse(ind)
		if err != nil {
			t.Fatalf("indented output does not parse: %v\n%s", err, ind)
		}
		if c3 := Encode(&v3); !bytes.Equal(c1, c3) {
			t.Fatalf("indent changed the value:\n%s\n%s", c1, c3)
		}
		// AppendIndentTree (from the value) and AppendIndentCanonical (from
		// the canonical text) write what AppendIndent writes for the tree.
		tree := Tree(&v)
		for _, escape := range []func(rune) bool{nil, EscapeNonASCII} {
			a, b := AppendIndentTree([]byte("x"), &v, 1, escape), AppendIndent([]byte("x"), &tree, 1, escape)
			if !bytes.Equal(a, b) {
				t.Fatalf("AppendIndentTree:\n%s\nAppendIndent of the tree:\n%s", a, b)
			}
			c, ok := AppendIndentCanonical([]byte("x"), string(c1), 1, escape)
			if !ok || !bytes.Equal(c, b) {
				t.Fatalf("AppendIndentCanonical (%v):\n%s\nAppendIndent of the tree:\n%s", ok, c, b)
			}
		}
		// Text that is not canonical is refused or written as its tree.
		if c, ok := AppendIndentCanonical(nil, string(data), 0, nil); ok && !bytes.Equal(c, AppendIndent(nil, &tree, 0, nil)) {
			t.Fatalf("AppendIndentCanonical accepts %q as\n%s", data, c)
		}
	})
}

// TestTreeIsParsedEncoding: Tree gives what parsing the canonical bytes
// gives, offsets aside.
func TestTreeIsParsedEncoding(t *testing.T) {
	for _, doc := range []string{
		`{"b": " x ", "a": [1, -0, 1.50, 1e16, 0.00001, -0.0, "\u3000y", {}, [], {"z": null, "y": true}], "c": {"k": 1E2}}`,
		`{"a": 1, "b": "c", "d": [{"e": "f"}]}`,
		`[]`, `"  "`, `-0`, `2.5e-3`,
	} {
		v, err := jsonv.Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		want, err := jsonv.Parse(Encode(&v))
		if err != nil {
			t.Fatal(err)
		}
		got := Tree(&v)
		if !sameTree(&got, &want) {
			t.Errorf("%s: Tree %s, want %s", doc, Encode(&got), Encode(&want))
		}
	}
}

func sameTree(a, b *jsonv.Value) bool {
	if a.Kind != b.Kind || a.Bool != b.Bool || a.Float != b.Float || a.Str != b.Str ||
		len(a.Items) != len(b.Items) || len(a.Members) != len(b.Members) ||
		(a.Items == nil) != (b.Items == nil) || (a.Members == nil) != (b.Members == nil) {
		return false
	}
	for i := range a.Items {
		if !sameTree(&a.Items[i], &b.Items[i]) {
			return false
		}
	}
	for i := range a.Members {
		if a.Members[i].Key != b.Members[i].Key || !sameTree(&a.Members[i].Value, &b.Members[i].Value) {
			return false
		}
	}
	return true
}
