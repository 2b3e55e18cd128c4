package jsonv

import "testing"

// Append writes a tree back as it was parsed: the same members in the
// same order, number literals as written, strings as decoded; writing the
// result again gives the same bytes.
func TestAppendWritesTheTreeBackExactly(t *testing.T) {
	for _, in := range []string{
		`{"b":1,"a":[1.50,-0,1e+3,"x"],"c":{"z":null,"y":true,"x":false}}`,
		`["tab\there","quote\"back\\slash","\u0001","é 🌦","\u2028"]`,
		`{" padded ":" kept "}`,
	} {
		v, err := Parse([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		out := Append(nil, &v)
		w, err := Parse(out)
		if err != nil {
			t.Fatalf("Append(%s) = %s, which does not parse: %v", in, out, err)
		}
		if again := Append(nil, &w); string(again) != string(out) {
			t.Errorf("not stable: %s then %s", out, again)
		}
		if v.Kind == Object && v.Members[0].Key != w.Members[0].Key {
			t.Errorf("member order changed: %s", out)
		}
	}
	v, _ := Parse([]byte(`[1.50,1e+3]`))
	if got := string(Append(nil, &v)); got != `[1.50,1e+3]` {
		t.Errorf("number literals: %s", got)
	}
}
