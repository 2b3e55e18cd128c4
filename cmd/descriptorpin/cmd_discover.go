package main

import (
	"encoding/json"
	"fmt"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/english"
	"github.com/descriptorpin/descriptorpin/service"
)

func init() {
	register(&command{
		name:    "discover",
		summary: "list the MCP client configs on this host",
		run:     runDiscover,
	})
}

func runDiscover(e *env, args []string) (err error) {
	c := lookup("discover")
	fset := newFlags(e, c)
	var format string
	var projects stringList
	var all bool
	fset.StringVar(&format, "format", "text", "")
	fset.Var(&projects, "project", "")
	fset.BoolVar(&all, "all", false, "")
	pos, err := parseFlags(e, c, fset, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef(c.name, "discover takes no arguments")
	}
	if format != "text" && format != "json" {
		return usagef(c.name, "--format must be text or json, got %q", sanitize.Text(format))
	}
	srcs, locs := service.DiscoverSources(service.Options{})
	var found, checked []service.Discovered
	for _, cand := range service.DiscoverPaths(service.Options{}, projects) {
		d := service.Inspect(cand)
		checked = append(checked, d)
		if d.Exists {
			found = append(found, d)
		}
	}
	defer func() {
		if bad := unparsed(found); bad > 0 && err == nil {
			fmt.Fprintf(e.stderr, "descriptorpin: %d MCP client %s found could not be parsed\n", bad, english.Plural(bad, "config", "configs"))
			err = errFindings
		}
	}()
	if format == "json" {
		list := found
		if all {
			list = checked
		}
		if list == nil {
			list = []service.Discovered{}
		}
		out, _ := json.MarshalIndent(map[string]any{"found": len(found), "checked": len(checked), "configs": list,
			"sources": append([]service.SourceInfo{}, srcs...), "source_locations": locs}, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", out)
		return nil
	}
	for _, d := range found {
		status := d.Status
		if status == "ok" {
			status = fmt.Sprintf("%d %s", d.Servers, english.Plural(d.Servers, "server", "servers"))
		} else {
			status = "cannot parse: " + sanitize.Text(status)
		}
		fmt.Fprintf(e.stdout, "%-14s %-8s %s: %s\n", d.Client, d.Scope, sanitize.Text(d.Path), status)
	}
	if len(found) == 0 || all {
		if len(found) == 0 {
			fmt.Fprintf(e.stdout, "no MCP client config found; checked %s:\n", english.Count(len(checked), "location", "locations"))
		} else {
			fmt.Fprintf(e.stdout, "checked %s:\n", english.Count(len(checked), "location", "locations"))
		}
		for _, d := range checked {
			if !d.Exists {
				fmt.Fprintf(e.stdout, "  %-14s %s\n", d.Client, sanitize.Text(d.Path))
			}
		}
	}
	fmt.Fprintf(e.stdout, "client tool sources: %d found in %d locations checked\n", len(srcs), len(locs))
	for _, s := range srcs {
		fmt.Fprintln(e.stdout, s.Text())
	}
	for _, l := range locs {
		if all || len(srcs) == 0 {
			fmt.Fprintln(e.stdout, l.Text())
		}
	}
	return nil
}

func unparsed(found []service.Discovered) int {
	n := 0
	for _, d := range found {
		if d.Status != "ok" {
			n++
		}
	}
	return n
}
