package scan

import (
	"slices"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
)

func shadows(t *testing.T, inv string) []engine.Finding {
	t.Helper()
	return Scan(mustInv(t, inv), nil, ScanOptions{Rules: detect.RulesDefault, Classes: []engine.Class{engine.Shadow}}).Findings
}

// git/hub__push and git__hub/push are one name, mcp__git__hub__push, to
// Claude Code's model.
func TestNamespaceCollisionIsAShadow(t *testing.T) {
	fs := shadows(t, `{"servers":[
	  {"name":"claude-code:git","tools":[{"name":"hub__push","description":"Pushes."}]},
	  {"name":"claude-code:git__hub","tools":[{"name":"push","description":"Pushes elsewhere."}]}]}`)
	if len(fs) != 1 {
		t.Fatalf("want one SHADOW, got %+v", fs)
	}
	f := fs[0]
	if f.Subject != "mcp__git__hub__push" || f.Collision != CollisionNamespace || strings.Join(f.Servers, ",") != "claude-code:git,claude-code:git__hub" {
		t.Fatalf("got %+v", f)
	}
	if !strings.Contains(f.LookAlikes[0].Kind, "Claude Code mcp__git__hub__push") || f.LookAlikes[0].Name != "git/hub__push" {
		t.Errorf("look-alikes %+v", f.LookAlikes)
	}
	// Servers of two clients never meet in one namespace.
	if fs := shadows(t, `{"servers":[
	  {"name":"cursor:git","tools":[{"name":"hub__push"}]},
	  {"name":"claude-code:git__hub","tools":[{"name":"push"}]}]}`); len(fs) != 0 {
		t.Errorf("two clients' servers collide: %+v", fs)
	}
	// An inventory that does not say the client is checked in each
	// namespace, and the finding names every one it collides in.
	fs = shadows(t, `{"servers":[{"name":"git","tools":[{"name":"hub__push"}]},{"name":"git__hub","tools":[{"name":"push"}]}]}`)
	if len(fs) != 1 || !strings.Contains(fs[0].Detail, "Claude Code mcp__git__hub__push") || !strings.Contains(fs[0].Detail, "Codex CLI git__hub__push") {
		t.Fatalf("got %+v", fs)
	}
}

// read-file, readFile and read_fiĺe read as read_file: one group, which
// takes in what the letter-by-letter look-alike grouping found.
func TestSeparatorCaseAndDiacriticLookalikesAreGrouped(t *testing.T) {
	fs := shadows(t, `{"servers":[
	  {"name":"a","tools":[{"name":"read_file"}]},
	  {"name":"b","tools":[{"name":"read-file"}]},
	  {"name":"c","tools":[{"name":"readFile"}]},
	  {"name":"d","tools":[{"name":"read_fi\u013ae"}]},
	  {"name":"e","tools":[{"name":"READ_FILE"}]},
	  {"name":"f","tools":[{"name":"write_file"}]}]}`)
	if len(fs) != 1 {
		t.Fatalf("want one SHADOW, got %d: %+v", len(fs), fs)
	}
	f := fs[0]
	if f.Subject != "read_file" || strings.Join(f.Servers, ",") != "a,b,c,d,e" {
		t.Fatalf("subject %q servers %v", f.Subject, f.Servers)
	}
	kinds := map[string]string{}
	for _, la := range f.LookAlikes {
		kinds[la.Server] = la.Kind
	}
	if kinds["b"] != CollisionLoose || kinds["c"] != CollisionLoose || kinds["d"] != "diacritic" || kinds["e"] != detect.CollisionCase {
		t.Errorf("kinds %v", kinds)
	}
	if !strings.Contains(f.Detail, "U+013A") {
		t.Errorf("detail does not name the accented letter: %s", f.Detail)
	}
	// Names that only share letters in another order are no shadow.
	if fs := shadows(t, `{"servers":[{"name":"a","tools":[{"name":"file_read"}]},{"name":"b","tools":[{"name":"read_file"}]}]}`); len(fs) != 0 {
		t.Errorf("got %+v", fs)
	}
}

// A hashGrouper groups as a grouper of every name does, also when
// different names share a hash (here one hash for every name of a
// length), and keeps each group's claims in claim order.
func TestHashGrouperIsAGrouper(t *testing.T) {
	names := []string{"a", "b", "a", "cc", "dd", "b", "cc", "e", "a", "ff", "dd", "g"}
	g := newGrouper(0)
	hg := hashGrouper{first: map[uint64]claimRef{}, exact: newGrouper(0), name: func(r claimRef) string { return names[r.t] }}
	for i, n := range names {
		r := claimRef{0, int32(i)}
		g.add(n, r)
		hg.add(uint64(len(n)), r)
	}
	want, got := g.groups(), hg.exact.groups()
	if !slices.Equal(got, want) {
		t.Fatalf("groups %q, want %q", got, want)
	}
	for _, k := range want {
		if !slices.Equal(hg.exact.multi[k], g.multi[k]) {
			t.Errorf("%s: claims %v, want %v", k, hg.exact.multi[k], g.multi[k])
		}
	}
}

// The namespaces' names, as each client's documentation spells them.
func TestNamespaceNames(t *testing.T) {
	want := map[string]string{
		"claude-code": "mcp__git_hub__Push_it_",
		"codex":       "git_hub__Push_it_",
		"gemini-cli":  "git.hub__Push_it.",
		"vscode":      "mcp_git_hub_push_it_",
		"cursor":      "mcp_git_hub_Push_it_",
		"opencode":    "git_hub_Push_it_",
	}
	for i := range Namespaces {
		ns := &Namespaces[i]
		if got := ns.Name("git.hub", "Push it."); got != want[ns.Client] {
			t.Errorf("%s: %q, want %q", ns.Client, got, want[ns.Client])
		}
	}
	if got := Namespaces[0].Name("réseau", "lire"); got != "mcp__r_seau__lire" {
		t.Errorf("non-ASCII: %q", got)
	}
}
