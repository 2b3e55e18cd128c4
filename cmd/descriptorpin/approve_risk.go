package main

import (
	"fmt"

	"github.com/descriptorpin/descriptorpin/engine/report"
	"github.com/descriptorpin/descriptorpin/engine/scan"
	"github.com/descriptorpin/descriptorpin/internal/english"
)

// confirmAll warns about riskyApprovals on stderr and, without --yes,
// refuses.
func confirmAll(e *env, r *scan.Report, yes bool) error {
	risky := scan.RiskyApprovals(r)
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
