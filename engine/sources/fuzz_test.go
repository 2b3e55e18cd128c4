package sources

import (
	"os"
	"testing"
	"testing/fstest"
)

func seed(f *testing.F, name string) {
	if b, err := os.ReadFile("testdata/" + name); err == nil {
		f.Add(b)
	}
}

// Every parser must return a value or an error for any input, never
// panic, and what it returns must make an inventory or a clear error.
func checkInventory(t *testing.T, servers []Server) {
	if _, err := ToInventory("fuzz", servers); err != nil {
		if _, ok := err.(interface{ Unwrap() error }); !ok {
			t.Fatalf("ToInventory: %T %v", err, err)
		}
	}
}

func FuzzVSCodeCache(f *testing.F) {
	seed(f, "vscode_mcpToolCache.json")
	f.Add([]byte(`{"serverTools":[["mcp.config.wf0.x",{"tools":[{"name":"a","serverToolName":"b"}]}]]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseVSCodeCache("f", b, VSCodeScope{Client: ClientVSCode, ProjectDir: "/p"})
		if err == nil {
			checkInventory(t, s)
		}
	})
}

func FuzzClaudeDesktopLog(f *testing.F) {
	seed(f, "claude_desktop_mcp.log")
	f.Fuzz(func(t *testing.T, b []byte) {
		s, st, _ := ParseClaudeDesktopLog("f", b, DesktopLogState{})
		if st.Offset < 0 || st.Offset > int64(len(b)) {
			t.Fatalf("offset %d of %d", st.Offset, len(b))
		}
		checkInventory(t, s)
		// Split in two at the middle: the lists are the same.
		h := len(b) / 2
		s1, st1, _ := ParseClaudeDesktopLog("f", b[:h], DesktopLogState{})
		s2, _, _ := ParseClaudeDesktopLog("f", b[st1.Offset:], st1)
		_ = Newest(s1, s2)
	})
}

func FuzzCursorTool(f *testing.F) {
	seed(f, "cursor/mcps/user-github/tools/create_issue.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := ParseCursorTool("f", b); err != nil {
			return
		}
		fsys := fstest.MapFS{
			"m/s/SERVER_METADATA.json": {Data: []byte(`{"serverIdentifier":"s"}`)},
			"m/s/tools/t.json":         {Data: b},
		}
		s, _, err := ParseCursorMCPs(fsys, "m")
		if err != nil {
			t.Fatal(err)
		}
		checkInventory(t, s)
	})
}

func FuzzClaudeCodeLog(f *testing.F) {
	seed(f, "claude_code.jsonl")
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, fromStart := range []bool{true, false} {
			if s, err := ParseClaudeCodeTail("f", "s", b, fromStart); err == nil {
				checkInventory(t, []Server{s})
			}
		}
	})
}

func FuzzMCPB(f *testing.F) {
	seed(f, "mcpb_manifest.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		if s, err := ParseMCPB("f", "id", b); err == nil {
			checkInventory(t, []Server{s})
		}
	})
}
