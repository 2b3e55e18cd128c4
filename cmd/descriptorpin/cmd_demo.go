package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/monitor"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/notify"
	"github.com/descriptorpin/descriptorpin/samples"
	"github.com/descriptorpin/descriptorpin/service"
)

func init() {
	register(&command{
		name:    "demo",
		summary: "watch a temporary copy of the samples while a rug pull happens",
		run:     runDemo,
	})
}

// demoSink prints events for a person as they happen.
type demoSink struct {
	mu  sync.Mutex
	w   io.Writer
	dir string
}

func (s *demoSink) Name() string { return "demo" }

func (s *demoSink) Send(ev engine.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	line := sanitize.Text(ev.Message)
	if ev.Finding != nil {
		line = fmt.Sprintf("[%s] %s", ev.Finding.Severity, sanitize.Text(ev.Finding.Summary))
	}
	line = strings.ReplaceAll(line, s.dir+string(os.PathSeparator), "")
	fmt.Fprintf(s.w, "  event %-17s %s\n", ev.Action, line)
	if ev.Finding != nil && ev.Action == engine.ActionFindingOpened {
		for _, d := range ev.Finding.Details {
			fmt.Fprintf(s.w, "  %17s       %s\n", "", sanitize.Text(d))
		}
	}
}

func runDemo(e *env, args []string) error {
	c := lookup("demo")
	fset := newFlags(e, c)
	var keep bool
	fset.BoolVar(&keep, "keep", false, "")
	if _, err := parseFlags(e, c, fset, args); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "descriptorpin-demo-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Fprintf(e.stdout, "demo files kept in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	cfg, inv, err := service.DemoConfig(dir)
	if err != nil {
		return err
	}
	log, err := service.OpenEventLog(cfg, version, nil)
	if err != nil {
		return err
	}
	defer log.Close()
	sink := &demoSink{w: e.stdout, dir: dir}
	d := service.New(cfg, notify.Multi{log, sink}, serviceOptions())
	sctx, stop := signal.NotifyContext(e.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(sctx)
	done := make(chan error, 1)
	fmt.Fprintf(e.stdout, "1. the service starts on the approved samples (a copy in %s)\n", dir)
	go func() { done <- d.Run(ctx) }()

	pause := func() {
		select {
		case <-ctx.Done():
		case <-time.After(1200 * time.Millisecond):
		}
	}
	pause()
	for _, st := range samples.DemoSteps {
		fmt.Fprintln(e.stdout, st.Say)
		if err := samples.EditJSON(inv, st.Edit); err != nil {
			cancel()
			<-done
			return err
		}
		pause()
	}
	cancel()
	if err := <-done; err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "5. descriptorpin status now says:")
	st, err := readState(filepath.Join(cfg.StateDir, service.StateFile))
	if err != nil {
		return err
	}
	v := monitor.Status(filepath.Join(cfg.StateDir, service.StateFile), st)
	var b strings.Builder
	writeStatus(&b, v)
	fmt.Fprint(e.stdout, strings.ReplaceAll(b.String(), dir+string(os.PathSeparator), ""))
	fmt.Fprintln(e.stdout, "The same events, as JSON lines for a SIEM, were written to the event log (events.jsonl).")
	return nil
}
