package main

import (
	"context"
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/english"
	"github.com/descriptorpin/descriptorpin/service"
)

func init() {
	register(&command{
		name:    "notify",
		summary: "notify test: send a test notification through every configured sink",
		run:     runNotify,
	})
}

// errSinksFailed: some sink failed its test. The one exit-code switch
// maps it to 1 (and prints nothing more): the lines above said which.
var errSinksFailed = errors.New("a notification sink failed its test")

func runNotify(e *env, args []string) error {
	c := lookup("notify")
	fset := newFlags(e, c)
	var cfgPath string
	fset.StringVar(&cfgPath, "config", "", "")
	pos, err := parseFlags(e, c, fset, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0:
		return usagef(c.name, "notify needs a subcommand: test")
	case pos[0] != "test":
		return usagef(c.name, "unknown notify subcommand %q: want test", sanitize.Text(pos[0]))
	case len(pos) > 1:
		return usagef(c.name, "notify test takes no arguments")
	}
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return err
	}
	sinks, err := service.NewNotifySinks(cfg, func(engine.Event) {}, sinkOptions(e))
	if err != nil {
		return err
	}
	type tester struct {
		name, target string
		test         func(context.Context) (string, error)
		close        func() error
	}
	var ts []tester
	if d := sinks.Desktop; d != nil {
		ts = append(ts, tester{d.Name(), d.Target(), d.Test, d.Close})
	}
	for _, w := range sinks.Webhooks {
		target := w.Target()
		if !w.Signed() {
			target += " (unsigned)"
		}
		ts = append(ts, tester{w.Name(), target, w.Test, w.Close})
	}
	if len(ts) == 0 {
		return &usageError{msg: "no notification sink is configured", hint: "set notify.desktop.enabled: true or add notify.webhooks in the config"}
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	failed := 0
	for _, t := range ts {
		detail, err := t.test(e.ctx)
		_ = t.close()
		result := "ok"
		if err != nil {
			failed++
			result, detail = "FAILED", err.Error()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", sanitize.Text(t.name), sanitize.Text(t.target), result, sanitize.Text(detail))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing the results: %w", err)
	}
	if failed > 0 {
		fmt.Fprintf(e.stderr, "descriptorpin: %d of %d notification %s failed\n", failed, len(ts), english.Plural(len(ts), "sink", "sinks"))
		return errSinksFailed
	}
	return nil
}
