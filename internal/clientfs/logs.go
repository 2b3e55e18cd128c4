package clientfs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sources"
)

// DefaultTailBytes is how much of the end of a Claude Code log is read.
const DefaultTailBytes = 16 << 20

// maxDesktopRead bounds what one ReadClaudeDesktopLog call reads, so a
// huge backlog is worked through across calls instead of in one.
const maxDesktopRead = 256 << 20

// ReadTail returns the last max bytes of a regular file (the whole file
// when it is smaller) and whether they start at its beginning. It reads
// with ReadAt from the end: a file of hundreds of GB costs max bytes.
func ReadTail(path string, max int64) ([]byte, bool, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	size := fi.Size()
	start := int64(0)
	if size > max {
		start = size - max
	}
	buf := make([]byte, size-start)
	n, err := f.ReadAt(buf, start)
	if err != nil && err != io.EOF {
		return nil, false, err
	}
	return buf[:n], start == 0, nil
}

// ReadClaudeCodeLog reads the newest tools/list result of one Claude Code
// server log folder, <cache>/<project>/mcp-logs-<server>/: its newest
// .jsonl file (by modification time), tail only (max bytes; 0 means
// DefaultTailBytes). The server name comes from the folder name.
func ReadClaudeCodeLog(dir string, max int64) (sources.Server, error) {
	if max <= 0 {
		max = DefaultTailBytes
	}
	server, ok := strings.CutPrefix(filepath.Base(dir), "mcp-logs-")
	if !ok || server == "" {
		return sources.Server{}, fmt.Errorf("%s: not an mcp-logs-<server> folder", dir)
	}
	p, err := newestJSONL(dir)
	if err != nil {
		return sources.Server{}, err
	}
	tail, fromStart, err := ReadTail(p, max)
	if err != nil {
		return sources.Server{}, err
	}
	return sources.ParseClaudeCodeTail(p, server, tail, fromStart)
}

// ReadClaudeDesktopLog continues an incremental read of a Claude Desktop
// MCP log: from st.Offset to the end of the file (at most 256 MiB a
// call), or from the start when the file shrank or was replaced since st.
// It returns each server's newest list in what was read, the state to
// keep for the next call, and the problems per exchange; err is an I/O
// error (the state is then unchanged).
func ReadClaudeDesktopLog(path string, st sources.DesktopLogState) ([]sources.Server, sources.DesktopLogState, []error, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, st, nil, err
	}
	defer f.Close()
	st = st.Resume(fi.Size(), fileIdentity(fi))
	var lists [][]sources.Server
	var problems []error
	read := int64(0)
	for st.Offset < fi.Size() && read < maxDesktopRead {
		n := min(fi.Size()-st.Offset, int64(sources.MaxLogLine))
		buf := make([]byte, n)
		got, err := f.ReadAt(buf, st.Offset)
		if err != nil && err != io.EOF {
			return nil, st, problems, err
		}
		before := st.Offset
		var servers []sources.Server
		var errs []error
		servers, st, errs = sources.ParseClaudeDesktopLog(path, buf[:got], st)
		lists = append(lists, servers)
		problems = append(problems, errs...)
		read += st.Offset - before
		if st.Offset == before {
			break // an incomplete last line: wait for the rest
		}
	}
	return sources.Newest(lists...), st, problems, nil
}

// newestJSONL is the newest .jsonl file of a Claude Code log folder.
func newestJSONL(dir string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	type cand struct {
		name string
		mod  int64
	}
	var files []cand
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, cand{e.Name(), fi.ModTime().UnixNano()})
	}
	if len(files) == 0 {
		return "", fmt.Errorf("%s: no .jsonl log", dir)
	}
	sort.Slice(files, func(a, b int) bool {
		if files[a].mod != files[b].mod {
			return files[a].mod > files[b].mod
		}
		return files[a].name > files[b].name
	})
	return filepath.Join(dir, files[0].name), nil
}

// CodeLogState is where an incremental read of a Claude Code log folder
// stands: the file read and the offset after its last complete line.
type CodeLogState struct {
	File     string
	Offset   int64
	Identity string
}

// ReadClaudeCodeLogSince is ReadClaudeCodeLog for a watcher: it reads only
// the complete lines the newest log gained since st, and found says
// whether they hold a tools/list result (else the caller keeps the list
// it had). When the newest file is another one, shrank, was replaced or
// st is zero, it reads the tail as ReadClaudeCodeLog does. A log that
// grows by a line costs reading that line.
func ReadClaudeCodeLogSince(dir string, st CodeLogState) (s sources.Server, found bool, next CodeLogState, err error) {
	server, ok := strings.CutPrefix(filepath.Base(dir), "mcp-logs-")
	if !ok || server == "" {
		return s, false, st, fmt.Errorf("%s: not an mcp-logs-<server> folder", dir)
	}
	p, err := newestJSONL(dir)
	if err != nil {
		return s, false, st, err
	}
	f, fi, err := openRegular(p)
	if err != nil {
		return s, false, st, err
	}
	defer f.Close()
	size, id := fi.Size(), fileIdentity(fi)
	start, whole := st.Offset, false
	if st.File != p || st.Identity != id || size < st.Offset || st.Offset == 0 || size-st.Offset > DefaultTailBytes {
		start, whole = max(0, size-DefaultTailBytes), true
	}
	buf := make([]byte, size-start)
	n, err := f.ReadAt(buf, start)
	if err != nil && err != io.EOF {
		return s, false, st, err
	}
	buf = buf[:n]
	next = CodeLogState{File: p, Identity: id, Offset: start + int64(n)}
	nl := bytes.LastIndexByte(buf, '\n')
	switch {
	case nl >= 0:
		next.Offset = start + int64(nl) + 1 // the next read starts at a line
		if !whole {
			buf = buf[:nl+1]
		}
	case !whole:
		return s, false, st, nil // no complete line yet
	}
	s, err = sources.ParseClaudeCodeTail(p, server, buf, start == 0 || !whole)
	if err != nil {
		var ie *engine.InputError
		if !whole && errors.As(err, &ie) && strings.HasPrefix(ie.Msg, "no tools/list result") {
			return s, false, next, nil
		}
		return s, false, next, err
	}
	return s, true, next, nil
}
