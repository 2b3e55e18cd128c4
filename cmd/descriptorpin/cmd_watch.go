package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"github.com/descriptorpin/descriptorpin/service"
)

func init() {
	register(&command{
		name:    "watch",
		summary: "run the service in the foreground: watch, re-scan, write events",
		run:     runWatch,
	})
}

// errForced is the second signal: exit now, without the clean shutdown.
var errForced = errors.New("second signal received, exiting without a clean shutdown")

func runWatch(e *env, args []string) error {
	c := lookup("watch")
	fset := newFlags(e, c)
	var cfgPath string
	fset.StringVar(&cfgPath, "config", "", "")
	pos, err := parseFlags(e, c, fset, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef(c.name, "watch takes no arguments")
	}
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return err
	}
	if err := cfg.ValidateWatch(); err != nil {
		return err
	}
	log, err := service.OpenEventLog(cfg, version, e.stderr)
	if err != nil {
		return service.Runtime(err) // the home directory not mounted yet, say
	}
	defer log.Close()

	// A second SIGINT or SIGTERM while the first is being handled forces
	// the exit; the first cancels the service, which then stops cleanly.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	sink, stopSinks, err := service.BuildSinks(cfg, log, sinkOptions(e))
	if err != nil {
		return err
	}
	defer stopSinks()
	done := make(chan error, 1)
	d := service.New(cfg, sink, watchOptions(e))
	go func() { done <- d.Run(ctx) }()
	return supervise(done, sigs, cancel)
}

// serviceOptions hands the service this process's surroundings.
func serviceOptions() service.Options {
	return service.Options{User: service.CurrentUser(), Version: version}
}

// watchOptions are serviceOptions with this command's stderr, which gets
// "cannot write events" when the event log fails.
func watchOptions(e *env) service.Options {
	opt := serviceOptions()
	opt.Stderr = e.stderr
	return opt
}

func sinkOptions(e *env) service.SinkOptions {
	return service.SinkOptions{Version: version, Getenv: e.getenv}
}

// supervise waits for the service to end. A signal cancels it (the
// service then shuts down cleanly); a second signal returns at once.
func supervise(done <-chan error, sigs <-chan os.Signal, cancel func()) error {
	count := 0
	for {
		select {
		case err := <-done:
			return err
		case <-sigs:
			count++
			cancel()
			if count >= 2 {
				return errForced
			}
		}
	}
}
