package clientfs

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sources"
)

const cacheValue = `{"extensionServers":[],"serverTools":[["mcp.config.usrlocal.github",{"serverName":"GitHub","serverInstructions":"Be careful.","nonce":"n","tools":[{"name":"get_me","description":"Get the user.","inputSchema":{"type":"object","properties":{}},"serverToolName":"get_me","_icons":[],"visibility":3}],"prompts":[]}]]}`

// newVSCodeDB makes a state.vscdb the way VS Code does (storage.ts:
// user_version 1, ItemTable, WAL mode) and returns an open connection
// that plays VS Code: it keeps the database open.
func newVSCodeDB(t *testing.T, dir string) (*sql.DB, string) {
	t.Helper()
	p := filepath.Join(dir, "state.vscdb")
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(p))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, s := range []string{
		"PRAGMA user_version = 1",
		"CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)",
		"PRAGMA journal_mode=WAL",
		"PRAGMA wal_autocheckpoint=0", // keep the newest state in the WAL only
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(s, err)
		}
	}
	t.Cleanup(func() { db.Close() })
	return db, p
}

func listDir(t *testing.T, dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// A writer holds the database open in WAL mode, with committed state in
// the WAL only and a write transaction open, while the reader reads: the
// reader sees the committed value, the writer is not blocked and commits
// afterwards, and the client's folder gains no file.
func TestReadItemWhileWriterHoldsWAL(t *testing.T) {
	dir := t.TempDir()
	db, p := newVSCodeDB(t, dir)
	if _, err := db.Exec("INSERT INTO ItemTable VALUES (?, ?)", sources.VSCodeCacheKey, cacheValue); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("the committed value should be in the WAL: %v", err)
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "INSERT INTO ItemTable VALUES (?, ?)", sources.VSCodeCacheKey, `{"uncommitted":true}`); err != nil {
		t.Fatal(err)
	}
	before := listDir(t, dir)

	v, err := ReadItem(p, sources.VSCodeCacheKey)
	if err != nil {
		t.Fatal(err)
	}
	if string(v) != cacheValue {
		t.Fatalf("read %q", v)
	}
	if after := listDir(t, dir); len(after) != len(before) {
		t.Fatalf("client folder changed: %v -> %v", before, after)
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		t.Fatalf("writer blocked after the read: %v", err)
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatalf("checkpoint failed: %v", err)
	}
	v, err = ReadItem(p, sources.VSCodeCacheKey)
	if err != nil || string(v) != `{"uncommitted":true}` {
		t.Fatalf("after commit: %q %v", v, err)
	}
}

func TestReadVSCodeDBWorkspace(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "User", "workspaceStorage", "0c1d")
	if err := os.MkdirAll(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "workspace.json"), []byte(`{"folder":"file:///home/me/proj"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	db, p := newVSCodeDB(t, ws)
	val := `{"serverTools":[["mcp.config.wf0.files",{"tools":[{"name":"read","serverToolName":"read"}]}]]}`
	if _, err := db.Exec("INSERT INTO ItemTable VALUES (?, ?)", sources.VSCodeCacheKey, val); err != nil {
		t.Fatal(err)
	}
	servers, err := ReadVSCodeDB(sources.ClientVSCode, p, "linux")
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 1 || servers[0].Name != "files@/home/me/proj" {
		t.Fatalf("servers %+v", servers)
	}
}

func TestReadItemHostile(t *testing.T) {
	dir := t.TempDir()
	db, p := newVSCodeDB(t, dir)
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = 'x'
	}
	for i := 0; i < 8; i++ {
		if _, err := db.Exec("INSERT INTO ItemTable VALUES (?, ?)", string(rune('a'+i)), big); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec("INSERT INTO ItemTable VALUES (?, ?)", sources.VSCodeCacheKey, "not json"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	db.Close()

	// A value that is not JSON: a clear error for this source.
	_, err := ReadVSCodeDB(sources.ClientVSCode, p, "linux")
	var ie *engine.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("not JSON: %v", err)
	}
	// No cache key: no servers, no error.
	if _, err := ReadItem(p, "nope"); !errors.Is(err, ErrNoItem) {
		t.Fatalf("missing key: %v", err)
	}
	// A truncated database.
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	trunc := filepath.Join(dir, "trunc.vscdb")
	if err := os.WriteFile(trunc, data[:len(data)/3], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadItem(trunc, sources.VSCodeCacheKey); err == nil {
		t.Fatal("truncated database read without error")
	}
	// Not a database at all.
	junk := filepath.Join(dir, "junk.vscdb")
	os.WriteFile(junk, []byte("hello, not sqlite"), 0o600)
	if _, err := ReadItem(junk, sources.VSCodeCacheKey); err == nil {
		t.Fatal("junk read without error")
	}
	// Missing.
	if _, err := ReadItem(filepath.Join(dir, "none.vscdb"), "k"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}
