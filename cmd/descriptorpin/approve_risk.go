package main

import (
	"fmt"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/report"
	"github.com/descriptorpin/descriptorpin/engine/scan"
	"github.com/descriptorpin/descriptorpin/internal/english"
)

// riskyApprovals lists the open high or critical findings that approve
// --all would leave standing on a tool or server it re-approves: a tool
// that changed and now carries a POISON is exactly what must not be waved
// through in bulk.
func riskyApprovals(r *scan.Report) []engine.Finding {
	tools, servers := map[string]bool{}, map[string]bool{}
	for _, f := range r.Findings {
		switch f.Class {
		case engine.Mutation, engine.Added, engine.Launch:
			tools[f.Subject] = true
			servers[f.Server] = true
		}
	}
	var out []engine.Finding
	for _, f := range r.Findings {
		switch f.Class {
		case engine.Mutation, engine.Added, engine.Removed, engine.Launch:
			continue // what approving resolves
		}
		if f.Severity < engine.High {
			continue
		}
		if tools[f.Subject] || (f.Tool == "" && servers[f.Server]) || (f.Tool != "" && tools[f.Server+"/"+f.Tool]) {
			out = append(out, f)
		}
	}
	return out
}

// confirmAll warns about riskyApprovals on stderr and, without --yes,
// refuses.
func confirmAll(e *env, r *scan.Report, yes bool) error {
	risky := riskyApprovals(r)
	if len(risky) == 0 {
		return nil
	}
	fmt.Fprintf(e.stderr, "descriptorpin: warning: --all would re-approve tools or servers that have %d open high or critical %s:\n", len(risky), english.Plural(len(risky), "finding", "findings"))
	for i := range risky {
		fmt.Fprintf(e.stderr, "  [%s] %s [id %s]\n", risky[i].Severity, report.FindingLines(&risky[i], r.Rules, report.TextOptions{})[0], risky[i].ID)
	}
	if yes {
		return nil
	}
	return &usageError{msg: "not approving --all over open high or critical findings without --yes",
		hint: "review the findings above, then name the tools to approve, accept a finding with --accept ID, or re-run with --yes"}
}
