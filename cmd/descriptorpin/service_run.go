package main

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/kardianos/service"
)

// serviceRun is 'descriptorpin service run', what the Windows service
// runs: a Windows service must answer the service control manager, which
// 'watch' alone does not, so this runs watch under kardianos/service's
// Run. Everywhere else (and on Windows from a console) it is watch.
func serviceRun(e *env, o serviceOpts) error {
	args := []string{}
	if o.config != "" {
		args = append(args, "--config", o.config)
	}
	if runtime.GOOS != "windows" || service.Interactive() {
		return runWatch(e, args)
	}
	p := &watchProgram{e: e, args: args}
	s, err := service.New(p, &service.Config{Name: serviceName})
	if err != nil {
		return err
	}
	p.svc = s
	if err := s.Run(); err != nil {
		return err
	}
	return p.result()
}

// watchProgram runs watch as a kardianos program: Start launches it, Stop
// cancels it and waits for its clean shutdown (daemon-stopped, state saved).
// When watch ends by itself (a config error, say), it asks the service
// manager to stop the service, so that the manager does not show a running
// service that does nothing.
type watchProgram struct {
	e    *env
	args []string
	svc  service.Service

	mu       sync.Mutex
	cancel   context.CancelFunc
	done     chan struct{}
	err      error
	stopping bool
}

func (p *watchProgram) Start(service.Service) error {
	ctx, cancel := context.WithCancel(p.e.ctx)
	p.mu.Lock()
	p.cancel, p.done = cancel, make(chan struct{})
	p.mu.Unlock()
	go func() {
		ee := *p.e
		ee.ctx = ctx
		err := runWatch(&ee, p.args)
		p.mu.Lock()
		p.err = err
		stopping := p.stopping
		p.mu.Unlock()
		close(p.done)
		if !stopping && p.svc != nil {
			_ = p.svc.Stop()
		}
	}()
	return nil
}

func (p *watchProgram) Stop(service.Service) error {
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

func (p *watchProgram) result() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}
