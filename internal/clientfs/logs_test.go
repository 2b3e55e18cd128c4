package clientfs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sources"
)

const codeList = `{"debug":"Message from server: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"find_symbol\",\"description\":\"Find symbols.\"}]}}","timestamp":"2026-08-11T06:19:25.402Z","sessionId":"s","cwd":"/home/me/proj"}` + "\n"

// A 2 GB log (sparse: no disk is used) with the list at its end is read
// by its last bytes only.
func TestClaudeCodeSparse2GB(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mcp-logs-serena")
	os.MkdirAll(dir, 0o700)
	p := filepath.Join(dir, "2026-08-11T06-19-12-114Z.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	const size = 2 << 30
	if err := f.Truncate(size); err != nil {
		t.Skip("no sparse files here:", err)
	}
	if _, err := f.WriteAt([]byte("\n"+codeList), size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s, err := ReadClaudeCodeLog(dir, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "serena" || len(s.Tools) != 1 || s.Project != "/home/me/proj" {
		t.Fatalf("%+v", s)
	}
	// The same file with the list 2 GB back from the end: a clear failure
	// for this source (the bound is honoured), not a 2 GB read.
	f, _ = os.OpenFile(p, os.O_RDWR, 0)
	f.Truncate(0)
	f.WriteAt([]byte(codeList), 0)
	f.Truncate(size + 4096)
	f.Close()
	_, err = ReadClaudeCodeLog(dir, 1<<20)
	var ie *engine.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "no tools/list result in the last") && !strings.Contains(err.Error(), "no complete line") {
		t.Fatalf("want a bounded failure, got %v", err)
	}
}

// A line of 100 MB at the end of a Claude Code log: the bounded tail
// holds no whole line, which is a clear failure; the list before it is
// out of reach by design.
func TestClaudeCode100MBLine(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mcp-logs-big")
	os.MkdirAll(dir, 0o700)
	p := filepath.Join(dir, "a.jsonl")
	f, _ := os.Create(p)
	f.WriteString(codeList)
	line := bytes.Repeat([]byte("x"), 100<<20)
	f.Write(line)
	f.WriteString("\n")
	f.Close()
	_, err := ReadClaudeCodeLog(dir, DefaultTailBytes)
	if err == nil || !strings.Contains(err.Error(), "no tools/list result in the last") {
		t.Fatalf("got %v", err)
	}
	// With a bound past the long line the list is found.
	s, err := ReadClaudeCodeLog(dir, 101<<20)
	if err != nil || len(s.Tools) != 1 {
		t.Fatalf("%v %v", s, err)
	}
}

func desktopLines(id int, tool string) string {
	return `2025-07-21T15:06:31.762Z [fs] [info] Message from client: {"method":"tools/list","params":{},"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `} { metadata: undefined }` + "\n" +
		`2025-07-21T15:06:31.770Z [fs] [info] Message from server: {"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"result":{"tools":[{"name":"` + tool + `"}]}} { metadata: undefined }` + "\n"
}

func toolNames(servers []sources.Server) string {
	var b strings.Builder
	for _, s := range servers {
		b.WriteString(s.Name + ":")
		for _, tv := range s.Tools {
			n, _ := tv.Get("name")
			b.WriteString(n.Str + ",")
		}
	}
	return b.String()
}

// Incremental reads: new lines only, a line in progress waits, a
// truncated file and a replaced (rotated) file start over.
func TestClaudeDesktopIncremental(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "mcp-server-fs.log")
	os.WriteFile(p, []byte(desktopLines(1, "a")), 0o600)
	s, st, errs, err := ReadClaudeDesktopLog(p, sources.DesktopLogState{})
	if err != nil || len(errs) != 0 || toolNames(s) != "fs:a," {
		t.Fatalf("%v %v %v", toolNames(s), errs, err)
	}
	// Nothing new: nothing returned.
	if s, st, _, _ = ReadClaudeDesktopLog(p, st); len(s) != 0 {
		t.Fatalf("re-read old lines: %v", toolNames(s))
	}
	// Appended: the request now, half of the response, then the rest.
	more := desktopLines(2, "b")
	cut := strings.Index(more, "\n") + 40
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(more[:cut])
	f.Close()
	if s, st, _, _ = ReadClaudeDesktopLog(p, st); len(s) != 0 || len(st.Pending) != 1 {
		t.Fatalf("half a response: %v %+v", toolNames(s), st)
	}
	f, _ = os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(more[cut:])
	f.Close()
	if s, st, _, _ = ReadClaudeDesktopLog(p, st); toolNames(s) != "fs:b," {
		t.Fatalf("rest of the response: %v", toolNames(s))
	}
	// Truncated and rewritten shorter: read from the start.
	os.WriteFile(p, []byte(desktopLines(3, "c")), 0o600)
	if s, st, _, _ = ReadClaudeDesktopLog(p, st); toolNames(s) != "fs:c," {
		t.Fatalf("after truncation: %v", toolNames(s))
	}
	// Replaced by a new, longer file (rotation): read from the start.
	q := filepath.Join(dir, "new.log")
	os.WriteFile(q, []byte(desktopLines(4, "d")+desktopLines(5, "e")), 0o600)
	if err := os.Rename(q, p); err != nil {
		t.Fatal(err)
	}
	if s, _, _, _ = ReadClaudeDesktopLog(p, st); toolNames(s) != "fs:e," {
		t.Fatalf("after rotation: %v", toolNames(s))
	}
}

// A 100 MB line in a Claude Desktop log is skipped, reported once, and
// the lists around it are read, in bounded pieces.
func TestClaudeDesktop100MBLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mcp.log")
	f, _ := os.Create(p)
	f.WriteString(desktopLines(1, "a"))
	f.Write(bytes.Repeat([]byte("y"), 100<<20))
	f.WriteString("\n")
	f.WriteString(desktopLines(2, "b"))
	f.Close()
	s, st, errs, err := ReadClaudeDesktopLog(p, sources.DesktopLogState{})
	if err != nil || len(errs) != 1 || toolNames(s) != "fs:b," {
		t.Fatalf("%v %v %v", toolNames(s), errs, err)
	}
	fi, _ := os.Stat(p)
	if st.Offset != fi.Size() || st.Skipping {
		t.Fatalf("state %+v of %d", st, fi.Size())
	}
}

func TestNotRegular(t *testing.T) {
	if _, _, err := ReadTail(t.TempDir(), 10); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("a folder: %v", err)
	}
}

// A watched Claude Code log that grows costs reading what it gained: a
// line without a list keeps the list known (found false), a new list is
// found, and a replaced file is read from its tail again.
func TestClaudeCodeSince(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "proj", "mcp-logs-serena")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "a.jsonl")
	noise := `{"debug":"tool call","timestamp":"t","cwd":"/c"}` + "\n"
	if err := os.WriteFile(p, []byte(noise+codeList), 0o644); err != nil {
		t.Fatal(err)
	}
	s, found, st, err := ReadClaudeCodeLogSince(dir, CodeLogState{})
	if err != nil || !found || s.Name != "serena" || len(s.Tools) != 1 || st.Offset != int64(len(noise+codeList)) {
		t.Fatalf("first read: %+v %v %+v %v", s, found, st, err)
	}
	appendTo := func(text string) {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(text)
		f.Close()
	}
	appendTo(noise + `{"debug":"half a li`)
	_, found, st2, err := ReadClaudeCodeLogSince(dir, st)
	if err != nil || found || st2.Offset != st.Offset+int64(len(noise)) {
		t.Fatalf("a line without a list: found %v, state %+v (was %+v), %v", found, st2, st, err)
	}
	appendTo(`ne"}` + "\n" + strings.Replace(codeList, "Find symbols.", "Find symbols, then more.", 1))
	s, found, _, err = ReadClaudeCodeLogSince(dir, st2)
	if err != nil || !found || !strings.Contains(s.Tools[0].Members[1].Value.Str, "then more") {
		t.Fatalf("the new list: %+v %v %v", s, found, err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(codeList), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, found, _, err = ReadClaudeCodeLogSince(dir, st2); err != nil || !found {
		t.Fatalf("a replaced file: %v %v", found, err)
	}
}
