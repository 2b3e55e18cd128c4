package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"sort"
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
func startProc(name string, args, env []string, dir string, secrets []string) (*proc, error) {
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
	p := &proc{cmd: cmd, stdin: inW, stdout: outR, stderr: &tail{max: 4096, secrets: secrets}, done: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, p.stderr
	cmd.WaitDelay = waitDelay
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	inR.Close()
	outW.Close()
	go func() {
		p.werr = cmd.Wait()
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

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
	cut bool // bytes were dropped from the front
	// secrets are values the server was given (env, headers, the secret
	// parts of its arguments): a server that prints them must not have
	// them shown in a failure reason, which reaches inventories and events.
	secrets []string
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
		t.cut = true
	}
	return len(b), nil
}

// lastLine is the last non-blank line, clipped, with every known secret
// value and anything token- or credential-shaped replaced and anything
// invisible shown escaped.
func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	text := string(t.buf)
	if t.cut {
		// The first bytes may be the end of a secret whose start was
		// dropped: skip to the next line, or past the longest secret.
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			text = text[i+1:]
		} else {
			longest := 0
			for _, s := range t.secrets {
				longest = max(longest, len(s))
			}
			text = text[min(longest, len(text)):]
		}
	}
	text = redactKnown(text, t.secrets)
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			continue
		}
		words := strings.Fields(l)
		for j, w := range words {
			words[j] = redact.Arg(w)
		}
		return fmt.Sprintf("%q", sanitize.Text(sanitize.Clip(strings.Join(words, " "), 200)))
	}
	return ""
}

// minSecret is the shortest value replaced in stderr: shorter ones (a
// LOG_LEVEL of "1") would mangle the text and protect nothing.
const minSecret = 4

// redactKnown replaces every occurrence of a known value, longest first so
// a value containing another is replaced whole.
func redactKnown(text string, secrets []string) string {
	vals := append([]string(nil), secrets...)
	sort.Slice(vals, func(i, j int) bool { return len(vals[i]) > len(vals[j]) })
	for _, v := range vals {
		if len(v) >= minSecret {
			text = strings.ReplaceAll(text, v, redact.Redacted)
		}
	}
	return text
}

// knownSecrets lists what a launched server was given that must not be
// echoed back: its config env values and header values (resolved), and the
// parts of its arguments the redaction policy hides.
func knownSecrets(env, headers map[string]string, args []string, lookup Lookup, home string) []string {
	var out []string
	for _, m := range []map[string]string{env, headers} {
		for _, v := range m {
			if r, err := resolve(v, lookup, home); err == nil {
				out = append(out, r)
			}
			out = append(out, v)
		}
	}
	red := redact.Args(args)
	for i, a := range args {
		if red[i] == a {
			continue
		}
		out = append(out, a)
		if k := strings.IndexByte(a, '='); k > 0 {
			out = append(out, a[k+1:])
		}
		if u, err := url.Parse(a); err == nil && u.User != nil {
			if pw, ok := u.User.Password(); ok {
				out = append(out, pw)
			}
		}
	}
	return out
}

// stdioSession launches the server and captures it.
func (c *capturer) stdio(ctx context.Context) (err error) {
	s := c.server
	if strings.TrimSpace(s.Command) == "" {
		return errors.New("stdio server has no command")
	}
	name, err := resolve(s.Command, c.opt.Lookup, c.opt.Home)
	if err != nil {
		return fmt.Errorf("command: %w", err)
	}
	args := make([]string, len(s.Args))
	for i, a := range s.Args {
		if args[i], err = resolve(a, c.opt.Lookup, c.opt.Home); err != nil {
			return fmt.Errorf("args[%d]: %w", i, err)
		}
	}
	env, err := serverEnv(c.opt.GOOS, c.opt.Lookup, c.opt.Home, s.Env)
	if err != nil {
		return err
	}
	c.phase = "start"
	p, err := startProc(name, args, env, c.opt.Dir, knownSecrets(s.Env, s.Headers, args, c.opt.Lookup, c.opt.Home))
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
