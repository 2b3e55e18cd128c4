package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/descriptorpin/descriptorpin/engine/redact"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Shutdown of a stdio server follows the MCP spec: close its stdin, wait,
// SIGTERM, wait, SIGKILL. The server runs in a process group of its own, and
// the signals go to the group, so what a launcher (npx, uvx, a shell) started
// goes too. When the capture's time is up the group is killed at once.
var (
	stopGrace = 2 * time.Second
	// waitDelay bounds how long reaping waits for the server's stderr to
	// close after it exited (a grandchild that left the group may hold it).
	waitDelay = time.Second
)

// proc is one launched stdio server.
type proc struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end of the server's stdin
	stdout *os.File // our end of the server's stdout
	stderr *tail
	done   chan struct{} // closed when the server has been reaped
	werr   error         // from Wait, set before done is closed

	eof       atomic.Bool // stdout ended or failed
	stdinOnce sync.Once
	once      sync.Once
	selfExit  bool // the server exited before we began to stop it
}

// startProc starts a server with exactly env as its environment, in its own
// process group, with stdin and stdout on pipes only we hold.
func startProc(name string, args, env []string, dir string, known [][]byte) (*proc, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = env
	if cmd.Env == nil {
		cmd.Env = []string{} // nil would mean "inherit everything"
	}
	cmd.Dir = dir
	setGroup(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	p := &proc{cmd: cmd, stdin: inW, stdout: outR, stderr: &tail{max: 4096, known: known}, done: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, p.stderr
	cmd.WaitDelay = waitDelay
	beginStart()
	if err := cmd.Start(); err != nil {
		endStart(0)
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	endStart(cmd.Process.Pid)
	inR.Close()
	outW.Close()
	go func() {
		p.werr = cmd.Wait()
		reaped(cmd.Process.Pid)
		close(p.done)
	}()
	return p, nil
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *proc) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

// kill ends the server's whole process group now.
func (p *proc) kill() { killGroup(p.cmd) }

// closeStdin is how the SDK closes the connection: the server sees the end
// of its input, the spec's first step of a shutdown. stop does the rest.
func (p *proc) closeStdin() { p.stdinOnce.Do(func() { p.stdin.Close() }) }

// stop shuts the server down and reaps it. Politely (after a capture) it
// follows the spec: end of input, a grace period, SIGTERM, another, SIGKILL.
// After a failure it kills at once: a server that hangs, floods or answers
// garbage is owed no grace. Either way, what is left of its process group
// is killed. It is safe to call more than once and from several goroutines.
func (p *proc) stop(fast bool) {
	p.once.Do(func() {
		if p.eof.Load() {
			// stdout ended: the server is probably exiting by itself;
			// give it a moment so its exit status is its own.
			p.waitFor(500 * time.Millisecond)
		}
		p.selfExit = p.exited()
		p.closeStdin()
		if fast {
			p.kill()
		}
		if !p.waitFor(stopGrace) {
			if terminateGroup(p.cmd) {
				p.waitFor(stopGrace)
			}
			p.kill()
			<-p.done
		}
		// A launcher that exited may have left children in the group. They
		// keep the group's id reserved, so this reaches them and nothing
		// else; with none left it is a no-op (or, after a full wrap of the
		// pid space within microseconds, a stray signal: accepted).
		p.kill()
		p.stdout.Close()
	})
}

// exitReason describes how a server that exited by itself ended, for a
// failure message: its exit status and the last line of its stderr; ok is
// false when it did not exit by itself. Call it after stop.
func (p *proc) exitReason() (reason string, ok bool) {
	if !p.selfExit {
		return "", false
	}
	st := ""
	if p.cmd.ProcessState != nil {
		st = " (" + p.cmd.ProcessState.String() + ")"
	}
	if line := p.stderr.lastLine(); line != "" {
		st += "; its stderr ends: " + line
	}
	return st, true
}

// procReader is the server's stdout as the SDK reads it: capped, and
// closing it stops the server.
type procReader struct {
	p *proc
	r io.Reader
}

func (r *procReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	var le *limitError
	if err != nil && !errors.As(err, &le) {
		r.p.eof.Store(true) // the pipe ended: the server may be exiting
	}
	return n, err
}

func (r *procReader) Close() error { r.p.closeStdin(); return nil }

type procWriter struct{ p *proc }

func (w *procWriter) Write(b []byte) (int, error) { return w.p.stdin.Write(b) }
func (w *procWriter) Close() error                { w.p.closeStdin(); return nil }

// tail keeps the last max bytes written to it, with every known value
// (the server's own env and header values, see knownValues) replaced by
// REDACTED before it is stored: a server that prints its token to stderr
// must not have it shown in inventory's output or the service's events.
// The replacement is streaming: a value split across two writes is
// caught, because the bytes that could begin one are held back until the
// next write says whether they do (and are shown as REDACTED if the
// server stops there).
type tail struct {
	mu      sync.Mutex
	max     int
	known   [][]byte
	buf     []byte // redacted
	pending []byte // raw: a possible start of a known value
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	data := redactKnown(append(t.pending, b...), t.known)
	hold := heldBack(data, t.known)
	t.pending = append([]byte(nil), data[len(data)-hold:]...)
	t.buf = append(t.buf, data[:len(data)-hold]...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

// text is what the tail holds, the held-back bytes shown as REDACTED.
func (t *tail) text() []byte {
	out := append([]byte(nil), t.buf...)
	if len(t.pending) > 0 {
		out = append(out, redact.Redacted...)
	}
	return out
}

// lastLine is the last non-blank line, clipped, with anything token-shaped
// replaced and anything invisible shown escaped.
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := bytes.Split(bytes.TrimSpace(t.text()), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(string(lines[i]))
		if l == "" {
			continue
		}
		words := strings.Fields(l)
		for j, w := range words {
			words[j] = redact.Arg(w) // token-, URL- and header-shaped credentials
		}
		return fmt.Sprintf("%q", sanitize.Text(sanitize.Clip(strings.Join(words, " "), 200)))
	}
	return ""
}

// stdioSession launches the server and captures it.
func (c *capturer) stdio(ctx context.Context) (err error) {
	s := c.server
	if strings.TrimSpace(s.Command) == "" {
		return errors.New("stdio server has no command")
	}
	var looked []string // what references in the command and args resolved to
	lookup := recordingLookup(c.opt.Lookup, &looked)
	name, err := resolve(s.Command, lookup, c.opt.Home)
	if err != nil {
		return fmt.Errorf("command: %w", err)
	}
	args := make([]string, len(s.Args))
	for i, a := range s.Args {
		if args[i], err = resolve(a, lookup, c.opt.Home); err != nil {
			return fmt.Errorf("args[%d]: %w", i, err)
		}
	}
	env, err := serverEnv(c.opt.GOOS, c.opt.Lookup, c.opt.Home, s.Env)
	if err != nil {
		return err
	}
	// The config's env and header values as resolved (the values the
	// server actually holds); the inherited set (PATH, HOME) is not.
	resolvedEnv := map[string]string{}
	for k, v := range s.Env {
		resolvedEnv[k], _ = resolve(v, c.opt.Lookup, c.opt.Home)
	}
	for k, v := range s.Headers {
		resolvedEnv["header "+k], _ = resolve(v, c.opt.Lookup, c.opt.Home)
	}
	c.phase = "start"
	p, err := startProc(name, args, env, c.opt.Dir, knownValues(s.Env, s.Headers, append(looked, argSecrets(args)...), resolvedEnv))
	if err != nil {
		return fmt.Errorf("cannot start: %w", err)
	}
	c.proc = p // Capture stops it
	stopKill := context.AfterFunc(ctx, p.kill)
	defer stopKill()
	t := &mcp.IOTransport{
		Reader:        &procReader{p: p, r: &lineLimiter{r: p.stdout, b: c.budget}},
		Writer:        &procWriter{p: p},
		MaxLineLength: int(2 * c.budget.maxMessage),
	}
	c.via = "stdio"
	return c.session(ctx, t)
}
