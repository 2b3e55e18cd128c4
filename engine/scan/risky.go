package scan

import "github.com/descriptorpin/descriptorpin/engine"

// RiskyApprovals lists the open high or critical findings that approve
// --all would leave standing on a tool or server it re-approves: a tool
// that changed and now carries a POISON is exactly what must not be waved
// through in bulk.
func RiskyApprovals(r *Report) []engine.Finding {
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
