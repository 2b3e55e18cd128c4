package jsonv

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzSplit holds the split parser to Parse: where it accepts a
// document Parse accepts it with the same tree (offsets, literals,
// order), and it accepts every document Parse accepts whose root's
// member is an array.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{`{"servers":[{"name":"a","tools":[{"name":"t"}]},{"name":"b"}],"x":1}`, `{"servers":[]}`, `{"servers":[1,"\u00e9",[[]]]}`,
		`{"servers":[{},]}`, `{"servers":[{"a":1,"a":2}]}`, `{"servers":{"a":[]}}`, ` {"servers" : [ {} , {} ] } `, "\xef\xbb\xbf{\"servers\":[{}]}", `{"servers":[{"a":"\ud800"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		full, err := Parse(data)
		split, ok := parseSplit(string(data), "servers", 3)
		if ok && err != nil {
			t.Fatalf("split accepts what Parse refuses (%v)", err)
		}
		if ok && !reflect.DeepEqual(full, split) {
			t.Fatalf("trees differ:\n%+v\n%+v", full, split)
		}
		if sv, has := full.Get("servers"); err == nil && has && full.Kind == Object && sv.Kind == Array && !ok {
			t.Fatal("split refuses what Parse accepts")
		}
		// And the entry points: ParseSplit and ParseSplitString return
		// Parse's tree and error (small documents go to Parse whole).
		for name, got := range map[string]func() (Value, error){
			"ParseSplit":       func() (Value, error) { return ParseSplit(data, "servers") },
			"ParseSplitString": func() (Value, error) { return ParseSplitString(string(data), "servers") },
		} {
			if v, err2 := got(); !reflect.DeepEqual(full, v) || !reflect.DeepEqual(err, err2) {
				t.Fatalf("%s differs from Parse: %v, %v", name, err, err2)
			}
		}
	})
}

// ParseSplit returns Parse's tree and Parse's error for a document
// large enough to be split.
func TestParseSplitIsParse(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"version":1,"servers":[`)
	for i := 0; b.Len() < 2*splitMin; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"name":"s","tools":[{"name":"t","description":"d\u00e9`)
		b.WriteString(strings.Repeat("x", i%300))
		b.WriteString(`","n":[1,2.5,true,null,{}]}]}`)
	}
	b.WriteString(`],"z":"end"}`)
	good := b.String()
	bad := strings.Replace(good, `"n":[1,2.5`, `"n":[1,2.5,`, 1)       // an error early in the list
	bad2 := strings.Replace(good, `"z":"end"}`, `"z":"end","z":1}`, 1) // and one after it
	for _, doc := range []string{good, bad, bad2} {
		full, err := Parse([]byte(doc))
		split, err2 := ParseSplit([]byte(doc), "servers")
		if !reflect.DeepEqual(full, split) || !reflect.DeepEqual(err, err2) {
			t.Fatalf("ParseSplit differs from Parse: errors %v, %v", err, err2)
		}
		split, err2 = ParseSplitString(doc, "servers")
		if !reflect.DeepEqual(full, split) || !reflect.DeepEqual(err, err2) {
			t.Fatalf("ParseSplitString differs from Parse: errors %v, %v", err, err2)
		}
	}
}
