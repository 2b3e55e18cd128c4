package clientfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadCursorMCPsNoLinks(t *testing.T) {
	root := t.TempDir()
	secret := filepath.Join(root, "secret.json")
	os.WriteFile(secret, []byte(`{"name":"stolen","description":"from outside"}`), 0o600)
	mcps := filepath.Join(root, "mcps")
	good := filepath.Join(mcps, "user-github")
	os.MkdirAll(filepath.Join(good, "tools"), 0o700)
	os.WriteFile(filepath.Join(good, "SERVER_METADATA.json"), []byte(`{"serverIdentifier":"user-github","serverName":"github"}`), 0o600)
	os.WriteFile(filepath.Join(good, "tools", "get_me.json"), []byte(`{"name":"get_me","description":"d","arguments":{"type":"object"}}`), 0o600)
	// A folder whose tool is a link out of the tree, and a server folder
	// that is itself a link.
	evil := filepath.Join(mcps, "evil")
	os.MkdirAll(filepath.Join(evil, "tools"), 0o700)
	os.WriteFile(filepath.Join(evil, "SERVER_METADATA.json"), []byte(`{"serverIdentifier":"evil"}`), 0o600)
	if err := os.Symlink(secret, filepath.Join(evil, "tools", "x.json")); err != nil {
		t.Skip("no symlinks:", err)
	}
	os.Symlink(good, filepath.Join(mcps, "linked"))

	servers, bad, err := ReadCursorMCPs(mcps)
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 1 || servers[0].Name != "github" {
		t.Fatalf("servers %+v", servers)
	}
	var reasons []string
	for _, m := range bad {
		reasons = append(reasons, m.Path+": "+m.Reason)
	}
	got := strings.Join(reasons, "\n")
	if len(bad) != 2 || strings.Contains(got, "stolen") {
		t.Fatalf("mismatches:\n%s", got)
	}
	// A direct read through a link is refused too.
	fsys, closeFS, _ := NoLinkFS(mcps)
	defer closeFS()
	if _, err := fsys.Open("evil/tools/x.json"); err == nil {
		t.Fatal("opened a link")
	}
	if _, err := fsys.Open("linked/SERVER_METADATA.json"); err == nil {
		t.Fatal("opened through a linked folder")
	}
}

func TestReadMCPB(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Claude Extensions", "ant.dir.files")
	os.MkdirAll(dir, 0o700)
	p := filepath.Join(dir, "manifest.json")
	os.WriteFile(p, []byte(`{"name":"files","tools":[{"name":"read","description":"Read"}]}`), 0o600)
	s, err := ReadMCPB(p)
	if err != nil || s.Name != "ant.dir.files" || len(s.Tools) != 1 {
		t.Fatalf("%+v %v", s, err)
	}
}
