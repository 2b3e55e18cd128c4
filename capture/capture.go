// Package capture is the MCP client side of DescriptorPin: the only code
// that talks to MCP servers. It launches a stdio server from its config
// entry (or reaches an HTTP server at its URL), runs the MCP handshake,
// lists the server's tools following tools/list pagination, shuts the
// server down, and returns each tool exactly as the server sent it, for
// cmd/descriptorpin to write as an inventory the engine reads.
//
// It uses the official Go SDK, github.com/modelcontextprotocol/go-sdk, for
// the protocol, and reads the raw JSON of every tools/list result off the
// wire, so that every field of a tool is kept (the SDK's Tool type knows a
// fixed set, and drops tools it finds invalid) and numbers in schemas stay
// exactly as written.
//
// # Safety
//
//   - A stdio server gets its configured env plus InheritedEnv of the
//     caller's environment, nothing else. References (${env:NAME}, ${NAME},
//     ${NAME:-default}, ${userHome}) in the command, args, env values, URL
//     and header values are resolved from the caller's environment, as the
//     clients that support them do.
//   - One Timeout covers start, initialize and every tools/list page. When
//     it passes, a stdio server's process group is killed (on Windows, the
//     process: a launcher's children are not reached); the server is
//     always reaped before Capture returns. On Linux a descendant that
//     left the group (double fork, setsid) is re-parented to
//     descriptorpin (a child subreaper) and killed once no server is
//     running; on macOS and Windows it is not reached (docs/security.md).
//   - Every byte read from a server counts: MaxMessageBytes per message,
//     MaxServerBytes in all, MaxPages pages. A result that the engine's
//     strict parser would reject (duplicate keys, invalid UTF-8, a tool
//     without a name, a tool listed twice) fails the server with the reason.
//   - HTTP headers from the config are sent to the server's own origin
//     only, never to a host a redirect points at.
//
// One server's failure is its Result's Err, with a reason for a person:
// the caller decides what the others do.
package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultIdentity is the clientInfo name a capture sends unless told
// otherwise: DescriptorPin says what it is.
const DefaultIdentity = "descriptorpin"

// DefaultTimeout is the time one capture of one server may take.
const DefaultTimeout = 30 * time.Second

// Options configures a capture. The zero value captures with the defaults
// and an empty caller environment.
type Options struct {
	// Timeout covers start, initialize and every tools/list page of one
	// capture; zero means DefaultTimeout.
	Timeout time.Duration
	// ClientVersion is the clientInfo version sent with every identity.
	ClientVersion string
	// Lookup reads the caller's environment (os.LookupEnv); nil is an
	// empty environment.
	Lookup Lookup
	// Home resolves ${userHome}.
	Home string
	// Dir is the working directory of stdio servers; empty is the
	// caller's.
	Dir string
	// GOOS selects InheritedEnv; empty is runtime.GOOS.
	GOOS string
	// MaxMessageBytes and MaxServerBytes override the caps (tests); zero
	// keeps MaxMessageBytes and MaxServerBytes.
	MaxMessageBytes int64
	MaxServerBytes  int64
}

// Result is one capture of one server under one clientInfo identity.
type Result struct {
	Server   *engine.Server
	Identity string
	// Tools holds each tool object of every tools/list page, in the
	// server's order, exactly as it was sent.
	Tools []json.RawMessage
	// Via is how the server was reached: "stdio", "streamable HTTP" or
	// "SSE".
	Via string
	// Protocol is the negotiated MCP protocol version; ServerInfo the
	// server's own name and version, as it said (untrusted text).
	Protocol   string
	ServerInfo string
	Pages      int
	Elapsed    time.Duration
	// Err is nil when the server was captured, and an *Error otherwise.
	Err error
}

// Error is why a server was not captured: Reason is a sentence for a
// person (sanitised), Phase where it happened, Err the cause.
type Error struct {
	Phase   string
	Reason  string
	Timeout bool
	Err     error
}

func (e *Error) Error() string { return e.Reason }
func (e *Error) Unwrap() error { return e.Err }

// configError is a problem with the server's entry found before anything
// ran; its text is the whole reason.
type configError struct{ error }

type capturer struct {
	server   *engine.Server
	identity string
	opt      Options
	budget   *budget

	phase      string
	via        string
	protocol   string
	serverInfo string
	pages      int
	listing    bool // initialize succeeded: no transport fallback after this
	tools      []json.RawMessage
	proc       *proc
}

// Capture connects to one server as identity (DefaultIdentity when empty),
// lists its tools and shuts it down. It returns when the server is gone.
func Capture(ctx context.Context, s *engine.Server, identity string, opt Options) *Result {
	if identity == "" {
		identity = DefaultIdentity
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.GOOS == "" {
		opt.GOOS = runtime.GOOS
	}
	if opt.Lookup == nil {
		opt.Lookup = func(string) (string, bool) { return "", false }
	}
	start := time.Now()
	c := &capturer{server: s, identity: identity, opt: opt, budget: newBudget(opt.MaxMessageBytes, opt.MaxServerBytes)}
	r := &Result{Server: s, Identity: identity}
	cctx, cancel := context.WithTimeout(ctx, opt.Timeout)
	err := c.run(cctx)
	if c.proc != nil {
		c.proc.stop(err != nil)
	}
	cancel()
	r.Via, r.Protocol, r.ServerInfo, r.Pages = c.via, c.protocol, c.serverInfo, c.pages
	r.Elapsed = time.Since(start)
	if err == nil {
		err = validate(s.Name, c.tools)
		if err != nil {
			err = &configError{fmt.Errorf("tools/list result rejected: %w", err)}
		}
	}
	if err != nil {
		r.Err = c.explain(ctx, cctx, err)
		return r
	}
	r.Tools = c.tools
	return r
}

func (c *capturer) run(ctx context.Context) error {
	s := c.server
	if strings.Contains(s.Name, "/") {
		return &configError{errors.New("its name contains '/', which an inventory cannot hold (server/tool keys would be ambiguous)")}
	}
	switch s.Transport {
	case "stdio":
		err := c.stdio(ctx)
		var ce *configError
		if err != nil && c.proc == nil && !errors.As(err, &ce) {
			err = &configError{err}
		}
		return err
	case "http", "streamable-http", "sse":
		return c.http(ctx)
	case "ws":
		return &configError{errors.New("transport 'ws' (WebSocket) is not one the MCP Go SDK speaks; it cannot be captured")}
	case "unknown", "":
		if s.Command != "" || s.URL != "" {
			return &configError{errors.New("the config does not say how to reach it (transport unknown)")}
		}
		return &configError{errors.New("the config gives neither a command nor a URL")}
	default:
		return &configError{fmt.Errorf("transport %q is not one the MCP Go SDK speaks", sanitize.Text(s.Transport))}
	}
}

// explain turns what went wrong into one sentence.
func (c *capturer) explain(parent, ctx context.Context, err error) error {
	var ce *configError
	if errors.As(err, &ce) {
		return &Error{Phase: c.phase, Reason: sanitize.Text(ce.Error()), Err: err}
	}
	phase := c.phase
	if phase == "" {
		phase = "connect"
	}
	e := &Error{Phase: phase, Err: err}
	switch {
	case parent.Err() != nil:
		e.Reason = "interrupted during " + phase
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		e.Timeout = true
		e.Reason = fmt.Sprintf("no answer within %s: timed out during %s", c.opt.Timeout, phase)
		if c.proc != nil {
			e.Reason += "; the server was killed"
		}
	case c.budget.why() != nil:
		e.Reason = fmt.Sprintf("%s during %s", c.budget.why(), phase)
	case c.proc != nil && exited(c.proc):
		why, _ := c.proc.exitReason()
		e.Reason = fmt.Sprintf("the server exited during %s%s", phase, why)
		if !closedErr(err) {
			// what it said before it went ("invalid character …") is the
			// reason; the exit may be seen first when it answers and quits
			e.Reason += "; before that: " + sanitize.Text(sanitize.Clip(err.Error(), 300))
		}
	default:
		e.Reason = fmt.Sprintf("%s: %s", phase, sanitize.Text(sanitize.Clip(err.Error(), 300)))
	}
	return e
}

func exited(p *proc) bool { _, ok := p.exitReason(); return ok }

// closedErr reports an error that only says the connection went away.
func closedErr(err error) bool {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, os.ErrClosed) {
		return true
	}
	m := err.Error()
	return strings.Contains(m, "EOF") || strings.Contains(m, "closed") || strings.Contains(m, "broken pipe")
}

// session runs the protocol over one transport: initialize (or the
// stateless discover of newer protocol versions, with fallback), then
// tools/list until there is no next cursor.
func (c *capturer) session(ctx context.Context, t mcp.Transport) error {
	rec := &recorder{}
	client := mcp.NewClient(&mcp.Implementation{Name: c.identity, Version: c.opt.ClientVersion}, nil)
	c.phase = "initialize"
	cs, err := client.Connect(ctx, &recTransport{inner: t, rec: rec}, nil)
	if err != nil {
		return rec.cause(err)
	}
	defer closeSession(cs)
	c.listing = true
	if ir := cs.InitializeResult(); ir != nil {
		c.protocol = ir.ProtocolVersion
		if ir.ServerInfo != nil {
			c.serverInfo = strings.TrimSpace(ir.ServerInfo.Name + " " + ir.ServerInfo.Version)
		}
	}
	seen := map[string]bool{}
	cursor := ""
	for page := 1; ; page++ {
		if page > MaxPages {
			return fmt.Errorf("more than %d pages of tools", MaxPages)
		}
		c.phase = "tools/list"
		if page > 1 {
			c.phase = fmt.Sprintf("tools/list page %d", page)
		}
		rec.expect()
		if _, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor}); err != nil {
			return rec.cause(err)
		}
		raw := rec.take()
		if raw == nil {
			return errors.New("no tools/list result was read from the connection")
		}
		tools, next, err := decodePage(raw)
		if err != nil {
			return &configError{fmt.Errorf("%s: the result is not valid: %w", c.phase, err)}
		}
		c.pages = page
		c.tools = append(c.tools, tools...)
		if next == "" {
			return nil
		}
		if seen[next] {
			return &configError{fmt.Errorf("%s: the server sent the cursor %q a second time; its pagination loops", c.phase, sanitize.Text(sanitize.Clip(next, 60)))}
		}
		seen[next] = true
		cursor = next
	}
}

// closeSession closes politely but does not wait forever: the transport's
// own shutdown (stop for stdio, the end of the HTTP client's life) follows.
func closeSession(cs *mcp.ClientSession) {
	done := make(chan struct{})
	go func() {
		_ = cs.Close()
		close(done)
	}()
	t := time.NewTimer(3 * stopGrace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// decodePage reads one tools/list result: the strict parser first (so a
// duplicate key or invalid UTF-8 anywhere is an error, not a guess), then
// the raw bytes of each tool.
func decodePage(raw []byte) ([]json.RawMessage, string, error) {
	root, err := jsonv.Parse(raw)
	if err != nil {
		return nil, "", err
	}
	if root.Kind != jsonv.Object {
		return nil, "", fmt.Errorf("the result is %s, not an object", root.Kind)
	}
	if err := caseClash(&root, "$"); err != nil {
		return nil, "", err
	}
	tv, ok := root.Get("tools")
	if !ok {
		return nil, "", errors.New("the result has no 'tools' list")
	}
	if tv.Kind != jsonv.Array {
		return nil, "", fmt.Errorf("'tools' is %s, not a list", tv.Kind)
	}
	for i := range tv.Items {
		if err := caseClash(&tv.Items[i], fmt.Sprintf("$.tools[%d]", i)); err != nil {
			return nil, "", err
		}
	}
	// The strict parse found no duplicate key and no bad byte, so the
	// standard decoder splits the list exactly as the strict one did.
	var list json.RawMessage
	if err := json.NewDecoder(strings.NewReader(string(raw[tv.Off:]))).Decode(&list); err != nil {
		return nil, "", err
	}
	var tools []json.RawMessage
	if err := json.Unmarshal(list, &tools); err != nil {
		return nil, "", err
	}
	if len(tools) != len(tv.Items) {
		return nil, "", errors.New("the tools list splits two ways")
	}
	next := ""
	if nv, ok := root.Get("nextCursor"); ok {
		switch nv.Kind {
		case jsonv.String:
			next = nv.Str
		case jsonv.Null:
		default:
			return nil, "", fmt.Errorf("'nextCursor' is %s, not a string", nv.Kind)
		}
	}
	return tools, next, nil
}

// caseClash rejects an object with two keys that differ only in case
// ("tools" and "Tools", "description" and "Description"): a
// case-insensitive decoder (Go's encoding/json) reads one, a case-sensitive
// one (the TypeScript and Python SDKs, the engine) the other, so the model
// could be shown a tool list that is not the one recorded.
func caseClash(v *jsonv.Value, path string) error {
	if v.Kind != jsonv.Object {
		return nil
	}
	seen := make(map[string]string, len(v.Members))
	for _, m := range v.Members {
		k := strings.ToLower(m.Key)
		if prev, dup := seen[k]; dup {
			return fmt.Errorf("%s: keys %q and %q differ only in case; readers disagree on which one counts", path,
				sanitize.Text(prev), sanitize.Text(m.Key))
		}
		seen[k] = m.Key
	}
	return nil
}

// validate parses the tools as the engine will read them from the
// inventory, so that a capture never writes a file the scan rejects.
func validate(server string, tools []json.RawMessage) error {
	doc, err := Document([]*Result{{Server: &engine.Server{Name: "server", Transport: "unknown"}, Tools: tools}})
	if err != nil {
		return err
	}
	_, err = inventory.Parse("tools/list", doc)
	var ie *engine.InputError
	if errors.As(err, &ie) {
		where := strings.TrimPrefix(strings.TrimPrefix(ie.Path, "$.servers[0]"), ".")
		msg := strings.ReplaceAll(ie.Msg, "server 'server'", "the server")
		if where == "" {
			return errors.New(msg)
		}
		return fmt.Errorf("%s: %s", where, msg)
	}
	return err
}

// recorder keeps the raw result of the tools/list call in flight.
type recorder struct {
	mu      sync.Mutex
	pending map[jsonrpc.ID]bool
	last    json.RawMessage
	readErr error // the first read that failed for a reason other than the connection going away
}

// cause is err, or, when err only says the connection went away, the
// read error that made it go ("invalid character 'W' looking for …"):
// the SDK may hand a call "connection closed" when its reader has
// already failed on what the server wrote, and which one a caller sees
// depends on scheduling.
func (r *recorder) cause(err error) error {
	if err == nil || !closedErr(err) {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.readErr != nil {
		return r.readErr
	}
	return err
}

func (r *recorder) expect() {
	r.mu.Lock()
	r.last = nil
	r.mu.Unlock()
}

func (r *recorder) take() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

type recTransport struct {
	inner mcp.Transport
	rec   *recorder
}

func (t *recTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recConn{Connection: conn, rec: t.rec}, nil
}

type recConn struct {
	mcp.Connection
	rec *recorder
}

func (c *recConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/list" && req.ID.IsValid() {
		c.rec.mu.Lock()
		if c.rec.pending == nil {
			c.rec.pending = map[jsonrpc.ID]bool{}
		}
		c.rec.pending[req.ID] = true
		c.rec.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *recConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil && !closedErr(err) {
		c.rec.mu.Lock()
		if c.rec.readErr == nil {
			c.rec.readErr = err
		}
		c.rec.mu.Unlock()
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.rec.mu.Lock()
		if c.rec.pending[resp.ID] {
			delete(c.rec.pending, resp.ID)
			if resp.Error == nil {
				c.rec.last = append(json.RawMessage(nil), resp.Result...)
			}
		}
		c.rec.mu.Unlock()
	}
	return msg, err
}
