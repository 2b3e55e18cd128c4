package service

import (
	"context"
	"sync"
	"time"

	kservice "github.com/kardianos/service"
)

// Program runs the service under a service control manager (the Windows
// SCM, through kardianos/service): Start launches Run, Stop cancels it and
// waits for its clean shutdown (daemon-stopped, state saved). When Run
// ends by itself (a config error, say), it asks the manager to stop the
// service, so that the manager does not show a running service that does
// nothing.
type Program struct {
	// Run is the service; it returns when its context is cancelled.
	Run func(ctx context.Context) error
	// Ctx is the parent of Run's context; nil is context.Background().
	Ctx context.Context
	// Svc is the manager's handle, set once kservice.New made it.
	Svc kservice.Service

	mu       sync.Mutex
	cancel   context.CancelFunc
	done     chan struct{}
	err      error
	stopping bool
}

func (p *Program) Start(kservice.Service) error {
	parent := p.Ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	p.mu.Lock()
	p.cancel, p.done = cancel, make(chan struct{})
	p.mu.Unlock()
	go func() {
		err := p.Run(ctx)
		p.mu.Lock()
		p.err = err
		stopping := p.stopping
		p.mu.Unlock()
		close(p.done)
		if !stopping && p.Svc != nil {
			_ = p.Svc.Stop()
		}
	}()
	return nil
}

func (p *Program) Stop(kservice.Service) error {
	p.mu.Lock()
	p.stopping = true
	cancel, done := p.cancel, p.done
	p.mu.Unlock()
	if cancel == nil {
		return nil
	}
	cancel()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
	}
	return nil
}

// Result is what Run returned.
func (p *Program) Result() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}
