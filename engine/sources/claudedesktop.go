package sources

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// Claude Desktop log caps.
const (
	// MaxLogLine is the longest log line read; a longer one is skipped
	// (and reported) without being held in memory whole.
	MaxLogLine = 32 << 20
	// maxPending bounds the requests remembered while waiting for their
	// responses; the oldest is forgotten first.
	maxPending = 64
)

// DesktopLogState is where an incremental read of one Claude Desktop log
// file stands. The caller keeps it between reads (it is a plain value,
// safe to persist as JSON); the zero value starts at the beginning.
type DesktopLogState struct {
	Offset   int64  // bytes consumed: the next read starts here
	Size     int64  // the file's size at the last read
	Identity string // the file's identity (device and inode, or the Windows equivalent) from the caller
	// Skipping is set while the reader is inside a line longer than
	// MaxLogLine: everything up to the next newline is dropped.
	Skipping bool
	// Pending are tools/list and initialize requests awaiting responses.
	// They hold a server name, an id and a method: nothing of the request.
	Pending []DesktopPending
	// Instructions are the last initialize instructions seen per server.
	Instructions []DesktopText
}

// DesktopPending is one request waiting for its response.
type DesktopPending struct {
	Server string
	ID     string // rpcID form
	Method string // "tools/list" or "initialize"
	Cursor bool   // a tools/list request for a later page
}

// DesktopText is a server's instructions.
type DesktopText struct {
	Server string
	Text   string
}

// Resume returns the state to read from next, given the file's size and
// identity now: the same state when the file only grew, a fresh one when
// it shrank (truncated) or was replaced (rotated).
func (s DesktopLogState) Resume(size int64, identity string) DesktopLogState {
	if identity != s.Identity || size < s.Offset || size < s.Size {
		return DesktopLogState{Identity: identity, Size: size}
	}
	s.Size = size
	return s
}

// ParseClaudeDesktopLog reads the bytes of a Claude Desktop MCP log
// (mcp.log or mcp-server-<name>.log) that start at st.Offset, and returns
// each server's newest tools/list result in them, the state to continue
// from, and a problem per bad exchange (one bad response fails that
// server's list, not the file).
//
// Lines look like (both orders of the bracketed server and level occur):
//
//	2025-07-21T15:06:31.741Z [name] [info] Message from client: {...} { metadata: undefined }
//	2025-09-04T10:08:38.663Z [info] [name] Message from server: {...}
//
// A result is a server message whose id matches an earlier client
// message with "method":"tools/list" for the same server; an initialize
// response's instructions ride with the server's next list. Only complete
// lines are consumed: a final line without its newline is left for the
// next read. Nothing else of any line is kept, and no error quotes a
// line: tool calls in these logs carry arguments and results.
func ParseClaudeDesktopLog(file string, chunk []byte, st DesktopLogState) ([]Server, DesktopLogState, []error) {
	next := st
	next.Pending = append([]DesktopPending(nil), st.Pending...)
	next.Instructions = append([]DesktopText(nil), st.Instructions...)
	var errs []error
	latest := map[string]int{}
	var out []Server
	pos := 0
	for pos < len(chunk) {
		nl := bytes.IndexByte(chunk[pos:], '\n')
		if nl < 0 {
			if len(chunk)-pos >= MaxLogLine {
				if !next.Skipping {
					errs = append(errs, &engine.InputError{File: file, Path: fmt.Sprintf("offset %d", st.Offset+int64(pos)), Msg: fmt.Sprintf("line longer than %d MiB skipped", MaxLogLine>>20)})
				}
				next.Skipping = true
				pos = len(chunk)
			}
			break
		}
		line := chunk[pos : pos+nl]
		off := st.Offset + int64(pos)
		pos += nl + 1
		if next.Skipping {
			next.Skipping = false
			continue
		}
		if len(line) > MaxLogLine {
			errs = append(errs, &engine.InputError{File: file, Path: fmt.Sprintf("offset %d", off), Msg: fmt.Sprintf("line longer than %d MiB skipped", MaxLogLine>>20)})
			continue
		}
		srv, err := next.line(file, off, line)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if srv == nil {
			continue
		}
		if i, ok := latest[srv.Name]; ok && srv.page {
			out[i].Tools = append(out[i].Tools, srv.Tools...)
			out[i].ReceivedAt = srv.ReceivedAt
			continue
		}
		if i, ok := latest[srv.Name]; ok {
			out[i] = srv.Server
			continue
		}
		latest[srv.Name] = len(out)
		out = append(out, srv.Server)
	}
	next.Offset = st.Offset + int64(pos)
	if next.Size < next.Offset {
		next.Size = next.Offset
	}
	kept := out[:0]
	for _, srv := range out {
		if err := checkTools(file, nil, srv.Tools, "tools/list result of "+q(srv.Name)); err != nil {
			errs = append(errs, err)
			continue
		}
		kept = append(kept, srv)
	}
	out = kept
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out, next, errs
}

type desktopResult struct {
	Server
	page bool
}

var logLevels = map[string]bool{"info": true, "warn": true, "warning": true, "error": true, "debug": true, "trace": true}

// splitDesktopLine returns the timestamp, server, direction ("client" or
// "server") and JSON text of a Message line, or ok=false for any other
// line.
func splitDesktopLine(line []byte) (ts, server, dir string, body []byte, ok bool) {
	const marker = " Message from "
	m := bytes.Index(line, []byte(marker))
	if m < 0 {
		return "", "", "", nil, false
	}
	rest := line[m+len(marker):]
	switch {
	case bytes.HasPrefix(rest, []byte("client: ")):
		dir, body = "client", rest[len("client: "):]
	case bytes.HasPrefix(rest, []byte("server: ")):
		dir, body = "server", rest[len("server: "):]
	default:
		return "", "", "", nil, false
	}
	head := string(line[:m])
	sp := strings.IndexByte(head, ' ')
	if sp <= 0 {
		return "", "", "", nil, false
	}
	ts, groups := head[:sp], head[sp+1:]
	if len(groups) < 5 || groups[0] != '[' || groups[len(groups)-1] != ']' {
		return "", "", "", nil, false
	}
	a, b, found := strings.Cut(groups[1:len(groups)-1], "] [")
	if !found {
		return "", "", "", nil, false
	}
	switch {
	case logLevels[b] && a != "":
		server = a
	case logLevels[a] && b != "":
		server = b
	default:
		return "", "", "", nil, false
	}
	return ts, server, dir, body, true
}

// line handles one log line; it returns a tools/list result or nil.
func (s *DesktopLogState) line(file string, off int64, line []byte) (*desktopResult, error) {
	ts, server, dir, body, ok := splitDesktopLine(line)
	if !ok {
		return nil, nil
	}
	where := func() string { return fmt.Sprintf("offset %d", off) }
	if dir == "client" {
		// Only a request that can be tools/list or initialize is parsed;
		// tools/call requests, with their arguments, are never decoded.
		if !bytes.Contains(body, []byte(`"tools/list"`)) && !bytes.Contains(body, []byte(`"initialize"`)) {
			return nil, nil
		}
		msg, err := parseLogJSON(body)
		if err != nil {
			return nil, nil // not a request we can pair; nothing to keep
		}
		method, _ := str(&msg, "method")
		if method != "tools/list" && method != "initialize" {
			return nil, nil
		}
		idv, ok := msg.Get("id")
		if !ok {
			return nil, nil
		}
		id, ok := rpcID(idv)
		if !ok {
			return nil, nil
		}
		p := DesktopPending{Server: server, ID: id, Method: method}
		if params, ok := msg.Get("params"); ok && params.Kind == jsonv.Object {
			if c, ok := params.Get("cursor"); ok && c.Kind != jsonv.Null {
				p.Cursor = true
			}
		}
		s.addPending(p)
		return nil, nil
	}
	// A server message is decoded only while a request of its server is
	// pending, and dropped unless its id matches one.
	if !s.hasPending(server) {
		return nil, nil
	}
	msg, err := parseLogJSON(body)
	if err != nil {
		return nil, nil // a response we cannot read cannot be paired
	}
	idv, ok := msg.Get("id")
	if !ok {
		return nil, nil
	}
	id, ok := rpcID(idv)
	if !ok {
		return nil, nil
	}
	p, ok := s.takePending(server, id)
	if !ok {
		return nil, nil
	}
	res, ok := msg.Get("result")
	if !ok || res.Kind != jsonv.Object {
		return nil, nil // an error response: no list
	}
	if p.Method == "initialize" {
		if instr, ok := str(res, "instructions"); ok {
			s.setInstructions(server, clipInstructions(instr))
		} else {
			s.setInstructions(server, "")
		}
		return nil, nil
	}
	tv, ok := res.Get("tools")
	if !ok || tv.Kind != jsonv.Array {
		return nil, &engine.InputError{File: file, Path: where(), Msg: fmt.Sprintf("tools/list result of server %s has no 'tools' list", q(server))}
	}
	return &desktopResult{Server: Server{
		Name: server, Client: ClientClaudeDesktop, ReceivedAt: ts,
		Instructions: s.instructions(server), Tools: tv.Items,
	}, page: p.Cursor}, nil
}

// parseLogJSON cuts the JSON object off the front of a log body and
// parses it. The error says nothing of the content.
func parseLogJSON(body []byte) (jsonv.Value, error) {
	end := objectEnd(body)
	if end < 0 {
		return jsonv.Value{}, fmt.Errorf("no complete JSON object")
	}
	v, err := jsonv.Parse(body[:end])
	if err != nil {
		return jsonv.Value{}, fmt.Errorf("invalid JSON")
	}
	if v.Kind != jsonv.Object {
		return jsonv.Value{}, fmt.Errorf("not an object")
	}
	return v, nil
}

func (s *DesktopLogState) addPending(p DesktopPending) {
	for i, q := range s.Pending {
		if q.Server == p.Server && q.ID == p.ID {
			s.Pending = append(s.Pending[:i], s.Pending[i+1:]...)
			break
		}
	}
	s.Pending = append(s.Pending, p)
	if len(s.Pending) > maxPending {
		s.Pending = s.Pending[len(s.Pending)-maxPending:]
	}
}

func (s *DesktopLogState) hasPending(server string) bool {
	for _, p := range s.Pending {
		if p.Server == server {
			return true
		}
	}
	return false
}

func (s *DesktopLogState) takePending(server, id string) (DesktopPending, bool) {
	for i, p := range s.Pending {
		if p.Server == server && p.ID == id {
			s.Pending = append(s.Pending[:i], s.Pending[i+1:]...)
			return p, true
		}
	}
	return DesktopPending{}, false
}

func (s *DesktopLogState) setInstructions(server, text string) {
	for i := range s.Instructions {
		if s.Instructions[i].Server == server {
			s.Instructions[i].Text = text
			return
		}
	}
	s.Instructions = append(s.Instructions, DesktopText{Server: server, Text: text})
	if len(s.Instructions) > maxPending {
		s.Instructions = s.Instructions[len(s.Instructions)-maxPending:]
	}
}

func (s *DesktopLogState) instructions(server string) string {
	for _, t := range s.Instructions {
		if t.Server == server {
			return t.Text
		}
	}
	return ""
}

// Newest keeps, per server name, the list with the latest ReceivedAt (ISO
// 8601 times compare as strings); on a tie the later one in the input
// wins. Claude Desktop writes each exchange to mcp.log and to the
// server's own log, so a caller reading both merges them with this.
func Newest(lists ...[]Server) []Server {
	best := map[string]Server{}
	for _, l := range lists {
		for _, s := range l {
			if b, ok := best[s.Name]; !ok || s.ReceivedAt >= b.ReceivedAt {
				best[s.Name] = s
			}
		}
	}
	out := make([]Server, 0, len(best))
	for _, s := range best {
		out = append(out, s)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}
