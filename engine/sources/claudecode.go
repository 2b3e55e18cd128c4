package sources

import (
	"bytes"
	"fmt"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// ParseClaudeCodeTail finds the newest tools/list result in the tail of a
// Claude Code MCP log, ~/.cache/claude-cli-nodejs/<project>/mcp-logs-<server>/<time>.jsonl.
// Such files are never read whole (they grow without bound: one user's
// reached 242 GB); tail is their last bytes, and fromStart says whether it
// begins at the start of the file (else its first, partial line is
// skipped). server is the name from the folder (mcp-logs-<server>).
//
// Each line is a JSON record, {"debug": "...", "timestamp", "sessionId",
// "cwd"} or {"error": "..."}. How a JSON-RPC message sits in a record is
// not documented (docs/sources.md): a message is recognised as the record
// itself, an object member, or a string member holding the message after
// an optional text prefix. The newest message whose result has a "tools"
// list and no "content" is the list; the record's timestamp and cwd give
// ReceivedAt and Project. Lines that cannot hold such a result are not
// decoded, nothing else is kept, and errors never quote a line.
func ParseClaudeCodeTail(file, server string, tail []byte, fromStart bool) (Server, error) {
	if !fromStart {
		nl := bytes.IndexByte(tail, '\n')
		if nl < 0 {
			return Server{}, &engine.InputError{File: file, Msg: fmt.Sprintf("no complete line in the last %d bytes", len(tail))}
		}
		tail = tail[nl+1:]
	}
	end := len(tail)
	for end > 0 {
		start := bytes.LastIndexByte(tail[:end], '\n') + 1
		line := bytes.TrimRight(tail[start:end], "\r\n")
		end = start - 1
		if len(line) == 0 || !bytes.Contains(line, []byte(`tools`)) {
			continue
		}
		rec, err := jsonv.Parse(line)
		if err != nil || rec.Kind != jsonv.Object {
			continue // a torn or foreign line: skipped, never echoed
		}
		tools, ok := toolsResult(&rec)
		if !ok {
			continue
		}
		s := Server{Name: server, Client: ClientClaudeCode, Tools: tools}
		s.ReceivedAt, _ = str(&rec, "timestamp")
		s.Project, _ = str(&rec, "cwd")
		if err := checkTools(file, nil, s.Tools, "tools/list result"); err != nil {
			return Server{}, err
		}
		return s, nil
	}
	return Server{}, &engine.InputError{File: file, Msg: fmt.Sprintf("no tools/list result in the last %d bytes", len(tail))}
}

// toolsResult looks for a JSON-RPC tools/list result in a log record.
func toolsResult(rec *jsonv.Value) ([]jsonv.Value, bool) {
	if t, ok := rpcTools(rec); ok {
		return t, true
	}
	for i := range rec.Members {
		v := &rec.Members[i].Value
		switch v.Kind {
		case jsonv.Object:
			if t, ok := rpcTools(v); ok {
				return t, true
			}
		case jsonv.String:
			s := v.Str
			if len(s) < 20 || !containsAll(s, `"jsonrpc"`, `"tools"`, `"result"`) {
				continue
			}
			i := bytes.IndexByte([]byte(s), '{')
			for i >= 0 {
				b := []byte(s[i:])
				if n := objectEnd(b); n > 0 {
					if msg, err := jsonv.Parse(b[:n]); err == nil {
						if t, ok := rpcTools(&msg); ok {
							return t, true
						}
					}
				}
				j := bytes.IndexByte(b[1:], '{')
				if j < 0 {
					break
				}
				i += j + 1
				if i > 256 { // the message follows a short prefix, not deep text
					break
				}
			}
		}
	}
	return nil, false
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !bytes.Contains([]byte(s), []byte(x)) {
			return false
		}
	}
	return true
}

// rpcTools returns result.tools of a JSON-RPC response that lists tools.
func rpcTools(msg *jsonv.Value) ([]jsonv.Value, bool) {
	if msg.Kind != jsonv.Object {
		return nil, false
	}
	if _, ok := msg.Get("jsonrpc"); !ok {
		return nil, false
	}
	res, ok := msg.Get("result")
	if !ok || res.Kind != jsonv.Object {
		return nil, false
	}
	if _, call := res.Get("content"); call {
		return nil, false
	}
	tv, ok := res.Get("tools")
	if !ok || tv.Kind != jsonv.Array {
		return nil, false
	}
	return tv.Items, true
}
