package cliflag

import (
	"flag"
	"reflect"
	"testing"
)

func TestParseTakesFlagsAndPositionalsInAnyOrder(t *testing.T) {
	for _, tt := range []struct {
		args []string
		pos  []string
		pin  string
		acc  List
	}{
		{[]string{"inv.json", "-p", "pin.json"}, []string{"inv.json"}, "pin.json", nil},
		{[]string{"-p", "pin.json", "a.json", "b.json"}, []string{"a.json", "b.json"}, "pin.json", nil},
		{[]string{"a.json", "--accept", "x", "b.json", "--accept", "y"}, []string{"a.json", "b.json"}, "", List{"x", "y"}},
		{[]string{"-p", "pin.json", "--", "-odd.json", "-p"}, []string{"-odd.json", "-p"}, "pin.json", nil},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		pin := fs.String("p", "", "")
		var acc List
		fs.Var(&acc, "accept", "")
		pos, err := Parse(fs, tt.args)
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		if !reflect.DeepEqual(pos, tt.pos) || *pin != tt.pin || !reflect.DeepEqual(acc, tt.acc) {
			t.Errorf("%v: positionals %v, -p %q, --accept %v", tt.args, pos, *pin, acc)
		}
	}
}
