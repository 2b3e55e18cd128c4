package capture

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// Limits on what one capture reads from a server. The SDK has caps of its
// own; these come first, so the reason a server is rejected is ours and
// says which cap it hit.
const (
	// MaxMessageBytes caps one JSON-RPC message: a stdio line, an SSE event
	// or a JSON response body. A tools/list page with a 50 MB description
	// stops here.
	MaxMessageBytes = 16 << 20
	// MaxServerBytes caps everything read from one server in one capture,
	// across pages: an inventory holds no more (engine.MaxFileBytes).
	MaxServerBytes = 64 << 20
	// MaxPages caps tools/list pages followed for one server.
	MaxPages = 1000
)

// limitError says which cap a server hit.
type limitError struct {
	total bool
	limit int64
}

func (e *limitError) Error() string {
	if e.total {
		return fmt.Sprintf("the server sent more than %s in all (the cap for one server)", size(e.limit))
	}
	return fmt.Sprintf("the server sent a message larger than %s (the cap for one message)", size(e.limit))
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// budget is the byte budget of one capture, shared by every reader of it,
// and the first cap that was hit: the SDK reports a failed read as a
// closed connection, and the budget keeps the real reason.
type budget struct {
	maxMessage int64
	maxTotal   int64
	total      atomic.Int64

	mu    sync.Mutex
	cause error
}

func newBudget(maxMessage, maxTotal int64) *budget {
	if maxMessage <= 0 {
		maxMessage = MaxMessageBytes
	}
	if maxTotal <= 0 {
		maxTotal = MaxServerBytes
	}
	return &budget{maxMessage: maxMessage, maxTotal: maxTotal}
}

// fail records the first cap hit and returns err.
func (b *budget) fail(err error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cause == nil {
		b.cause = err
	}
	return err
}

func (b *budget) why() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cause
}

func (b *budget) add(n int) error {
	if b.total.Add(int64(n)) > b.maxTotal {
		return b.fail(&limitError{total: true, limit: b.maxTotal})
	}
	return nil
}

func (b *budget) message() error {
	return b.fail(&limitError{limit: b.maxMessage})
}

// lineLimiter caps each newline-delimited message (stdio) and the total.
type lineLimiter struct {
	r    io.Reader
	b    *budget
	line int64
}

func (l *lineLimiter) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if n > 0 {
		if e := l.b.add(n); e != nil {
			return 0, e
		}
		chunk := p[:n]
		for len(chunk) > 0 {
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				l.line += int64(len(chunk))
				break
			}
			if l.line+int64(i) > l.b.maxMessage {
				return 0, l.b.message()
			}
			l.line = 0
			chunk = chunk[i+1:]
		}
		if l.line > l.b.maxMessage {
			return 0, l.b.message()
		}
	}
	return n, err
}

// eventLimiter caps each server-sent event (text/event-stream: events end
// at a blank line) and the total.
type eventLimiter struct {
	r     io.ReadCloser
	b     *budget
	event int64
	line  int64
}

func (l *eventLimiter) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if n > 0 {
		if e := l.b.add(n); e != nil {
			return 0, e
		}
		for _, c := range p[:n] {
			switch c {
			case '\n':
				if l.line == 0 {
					l.event = 0
				}
				l.line = 0
			case '\r':
			default:
				l.line++
				l.event++
				if l.event > l.b.maxMessage {
					return 0, l.b.message()
				}
			}
		}
	}
	return n, err
}

func (l *eventLimiter) Close() error { return l.r.Close() }

// bodyLimiter caps a whole response body as one message (application/json)
// and the total.
type bodyLimiter struct {
	r    io.ReadCloser
	b    *budget
	read int64
}

func (l *bodyLimiter) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if n > 0 {
		if e := l.b.add(n); e != nil {
			return 0, e
		}
		l.read += int64(n)
		if l.read > l.b.maxMessage {
			return 0, l.b.message()
		}
	}
	return n, err
}

func (l *bodyLimiter) Close() error { return l.r.Close() }
