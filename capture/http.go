package capture

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/redact"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// http reaches the server at its URL: streamable HTTP first and the older
// SSE transport as the fallback (the other way round for a server the
// config says is SSE), as the MCP spec's backwards-compatibility section
// tells clients to. A fallback is tried only when the first transport
// could not even initialize, within the same time budget.
func (c *capturer) http(ctx context.Context) error {
	s := c.server
	raw, err := resolve(s.URL, c.opt.Lookup, c.opt.Home)
	if err != nil {
		return &configError{fmt.Errorf("url: %w", err)}
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &configError{fmt.Errorf("url %q is not an http:// or https:// URL", sanitize.Text(redact.URL(s.URL)))}
	}
	headers := http.Header{}
	for k, v := range s.Headers {
		r, err := resolve(v, c.opt.Lookup, c.opt.Home)
		if err != nil {
			return &configError{fmt.Errorf("header %s: %w", sanitize.Text(k), err)}
		}
		headers.Set(k, r)
	}
	life, end := context.WithCancel(context.Background())
	defer end()
	base := http.DefaultTransport.(*http.Transport).Clone()
	defer base.CloseIdleConnections()
	hc := &http.Client{Transport: &roundTripper{base: base, origin: u, headers: headers, b: c.budget, life: life}}
	streamable := func() (string, mcp.Transport) {
		return "streamable HTTP", &mcp.StreamableClientTransport{Endpoint: u.String(), HTTPClient: hc, MaxRetries: -1,
			DisableStandaloneSSE: true, MaxEventSize: int(2 * c.budget.maxMessage)}
	}
	sse := func() (string, mcp.Transport) {
		return "SSE", &mcp.SSEClientTransport{Endpoint: u.String(), HTTPClient: hc, MaxEventSize: int(2 * c.budget.maxMessage)}
	}
	order := []func() (string, mcp.Transport){streamable, sse}
	if s.Transport == "sse" {
		order = []func() (string, mcp.Transport){sse, streamable}
	}
	var failures []string
	for i, next := range order {
		via, t := next()
		c.via = via
		if i > 0 {
			c.via = via + " (fallback)"
		}
		err = c.session(ctx, t)
		if err == nil || c.listing || ctx.Err() != nil || c.budget.why() != nil {
			break
		}
		failures = append(failures, via+": "+sanitize.Clip(err.Error(), 200))
	}
	if err != nil && !c.listing && len(failures) == len(order) {
		return &configError{fmt.Errorf("initialize failed over both transports: %s", strings.Join(failures, "; "))}
	}
	return err
}

// roundTripper adds the config's headers to requests for the server's own
// origin (never to another host a redirect names), caps every response
// body, and ends every request when the capture ends.
type roundTripper struct {
	base    http.RoundTripper
	origin  *url.URL
	headers http.Header
	b       *budget
	life    context.Context
}

func (rt *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	stop := context.AfterFunc(rt.life, cancel)
	done := func() { stop(); cancel() }
	req = req.Clone(ctx)
	if req.URL.Scheme == rt.origin.Scheme && req.URL.Host == rt.origin.Host {
		for k, vs := range rt.headers {
			if _, set := req.Header[k]; !set { // the SDK's protocol headers stay its own
				req.Header[k] = vs
			}
		}
	}
	resp, err := rt.base.RoundTrip(req)
	if err != nil {
		done()
		return nil, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "text/event-stream" {
		resp.Body = &endBody{eventLimiter: eventLimiter{r: resp.Body, b: rt.b}, done: done}
	} else {
		resp.Body = &endJSONBody{bodyLimiter: bodyLimiter{r: resp.Body, b: rt.b}, done: done}
	}
	return resp, nil
}

type endBody struct {
	eventLimiter
	done func()
}

func (b *endBody) Close() error { err := b.eventLimiter.Close(); b.done(); return err }

type endJSONBody struct {
	bodyLimiter
	done func()
}

func (b *endJSONBody) Close() error { err := b.bodyLimiter.Close(); b.done(); return err }
