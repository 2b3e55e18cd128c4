package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/monitor"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/english"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
	"github.com/descriptorpin/descriptorpin/service"
)

func init() {
	register(&command{
		name:    "status",
		summary: "show the service's open findings and watched files",
		run:     runStatus,
	})
}

func runStatus(e *env, args []string) error {
	c := lookup("status")
	fset := newFlags(e, c)
	var cfgPath, format string
	fset.StringVar(&cfgPath, "config", "", "")
	fset.StringVar(&format, "format", "text", "")
	pos, err := parseFlags(e, c, fset, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef(c.name, "status takes no arguments")
	}
	if format != "text" && format != "json" {
		return usagef(c.name, "--format must be text or json, got %q", sanitize.Text(format))
	}
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return err
	}
	path := filepath.Join(cfg.StateDir, service.StateFile)
	st, err := readState(path)
	if err != nil {
		return err
	}
	v := monitor.Status(path, st, service.ProbeStates(cfg.StateDir)...)
	if format == "json" {
		out, _ := json.MarshalIndent(v.Escaped(), "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", out)
	} else {
		writeStatus(e.stdout, v)
		fmt.Fprintf(e.stdout, "tool descriptors: %s\n", service.ToolPinningOf(cfgPath))
	}
	if len(v.Open) > 0 {
		return errFindings
	}
	return nil
}

func readState(path string) (*monitor.State, error) {
	data, err := fileio.ReadCapped("state", path, engine.MaxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &usageError{msg: fmt.Sprintf("no service state at %q", sanitize.Text(path)),
			hint: "the service has not run with this config yet; start it with 'descriptorpin watch' or 'descriptorpin service install'"}
	}
	if err != nil {
		return nil, err
	}
	st := monitor.NewState()
	if err := json.Unmarshal(data, st); err != nil {
		return nil, &engine.InputError{File: path, Msg: "state is not valid JSON: " + err.Error()}
	}
	return st, nil
}

func writeStatus(w io.Writer, v monitor.StatusView) {
	present := 0
	for _, t := range v.Targets {
		if t.Result != "absent" {
			present++
		}
	}
	fmt.Fprintf(w, "watched files: %d\n", present)
	absent := 0
	for _, t := range v.Targets {
		if t.Result == "absent" {
			absent++
			continue
		}
		line := fmt.Sprintf("  %s (%s): %s", sanitize.Text(t.Path), t.Kind, t.Result)
		if t.Open > 0 {
			line += fmt.Sprintf(", %d open", t.Open)
		}
		if t.LastScan != "" {
			line += ", last scan " + t.LastScan
		}
		fmt.Fprintln(w, line)
		if t.Error != "" {
			fmt.Fprintf(w, "    error: %s\n", sanitize.Text(t.Error))
		}
		for _, n := range t.Notes {
			fmt.Fprintf(w, "    note: %s\n", sanitize.Text(n))
		}
	}
	if absent > 0 {
		fmt.Fprintf(w, "  (and %d client config %s not present on this host, watched in case a client is installed)\n", absent, english.Plural(absent, "location", "locations"))
	}
	fmt.Fprintf(w, "open findings: %d\n", len(v.Open))
	for _, f := range v.Open {
		fmt.Fprintf(w, "  [%s] %s (since %s) [id %s]\n", f.Severity, sanitize.Text(f.Summary), f.OpenedAt, sanitize.Text(f.FindingID))
		for _, d := range f.Details {
			fmt.Fprintf(w, "    %s\n", sanitize.Text(d))
		}
	}
	if len(v.Degraded) > 0 {
		keys := make([]string, 0, len(v.Degraded))
		for k := range v.Degraded {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(w, "degraded watches: %d\n", len(keys))
		for _, k := range keys {
			fmt.Fprintf(w, "  %s: %s\n", sanitize.Text(k), sanitize.Text(v.Degraded[k]))
		}
	}
}
