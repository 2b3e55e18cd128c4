package inventory

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
)

// sameBothWays parses doc with its servers read one by one and on every
// CPU, and fails unless the inventories (every value, name, offset and
// place) or the errors are the same.
func sameBothWays(t *testing.T, doc []byte) {
	t.Helper()
	parse := func(n int) (*engine.Inventory, error) {
		defer func(was int) { parallelTools = was }(parallelTools)
		parallelTools = n
		return Parse("f.json", doc)
	}
	a, errA := parse(1 << 30)
	b, errB := parse(0)
	if fmt.Sprint(errA) != fmt.Sprint(errB) {
		t.Fatalf("errors differ:\n  one by one: %v\n  parallel:   %v", errA, errB)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("inventories differ")
	}
}

// Servers read on every CPU give what reading them one by one gives:
// the same inventory, and the first error in the file.
func TestServersReadInParallelAreReadInOrder(t *testing.T) {
	var servers []string
	for i := range 40 {
		servers = append(servers, fmt.Sprintf(`{"name":"s%d","transport":"stdio","command":"npx","env":{"K":"v"},"instructions":"Use it.","tools":[{"name":"t","description":"d","inputSchema":{"type":"object"}},{"name":"u"}]}`, i))
	}
	doc := func(ss []string) []byte { return []byte(`{"servers":[` + strings.Join(ss, ",\n") + `]}`) }
	sameBothWays(t, doc(servers))
	bad := func(i int, s string) []string {
		out := append([]string(nil), servers...)
		out[i] = s
		return out
	}
	for _, ss := range [][]string{
		bad(30, `{"name":"s30","tools":3}`),
		bad(5, `{"name":"s4","tools":[]}`),                                              // a name used before, and...
		append(bad(5, `{"name":"s4","tools":[]}`), `{"name":"x","tools":[{"name":1}]}`), // ...an error after it
		append(bad(20, `{"name":"a","tools":[{"name":"b/c"}]}`), `{"name":"a/b","tools":[{"name":"c"}]}`),
		bad(39, `{"tools":[]}`),
		append(bad(2, `[]`), `{"name":"y","env":{"K":1}}`),
	} {
		sameBothWays(t, doc(ss))
	}
	for _, tt := range refusals {
		sameBothWays(t, []byte(tt.doc))
	}
}

// FuzzServers holds the servers read on every CPU to the servers read
// one by one.
func FuzzServers(f *testing.F) {
	for _, tt := range refusals {
		f.Add([]byte(tt.doc))
	}
	f.Add([]byte(`{"servers":[{"name":"a","tools":[{"name":"t"}]},{"name":"b","instructions":"x","tools":[{"name":"t","title":"y"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { sameBothWays(t, data) })
}
