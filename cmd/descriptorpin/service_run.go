package main

import (
	"context"
	"runtime"

	"github.com/kardianos/service"

	dpservice "github.com/descriptorpin/descriptorpin/service"
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
	p := &dpservice.Program{Ctx: e.ctx, Run: func(ctx context.Context) error {
		ee := *e
		ee.ctx = ctx
		return runWatch(&ee, args)
	}}
	s, err := service.New(p, &service.Config{Name: serviceName})
	if err != nil {
		return err
	}
	p.Svc = s
	if err := s.Run(); err != nil {
		return err
	}
	return p.Result()
}
