package monitor

import (
	"sort"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// StatusView is what `descriptorpin status` shows of a state, and its JSON
// form (docs/schemas/ describes it).
type StatusView struct {
	State    string                `json:"state_file"`
	Open     []*engine.OpenFinding `json:"open"`
	Targets  []TargetView          `json:"targets"`
	Degraded map[string]string     `json:"degraded"`
}

// TargetView is one watched file in a StatusView.
type TargetView struct {
	Path     string   `json:"path"`
	Kind     string   `json:"kind"`
	LastScan string   `json:"last_scan"`
	Result   string   `json:"result"`
	Error    string   `json:"error,omitempty"`
	Notes    []string `json:"notes,omitempty"` // what the last scan could not check
	Open     int      `json:"open"`
}

// Status builds the view of st, read from path: open findings most
// severe first, targets in path order. probes are the states the
// scheduled capture keeps beside st (its BAIT-AND-SWITCH findings, one
// per captured client config): their open findings are counted with the
// target of the same path, and listed.
func Status(path string, st *State, probes ...*FileState) StatusView {
	v := StatusView{State: path, Open: []*engine.OpenFinding{}, Targets: []TargetView{}, Degraded: map[string]string{}}
	paths := make([]string, 0, len(st.Files))
	for p := range st.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := st.Files[p]
		tv := TargetView{Path: p, Kind: f.Kind, LastScan: f.LastScan, Result: f.Result, Error: f.Error, Notes: f.Notes, Open: len(f.Open)}
		for _, pr := range probes {
			if pr != nil && pr.Path == p {
				tv.Open += len(pr.Open)
				if len(pr.Open) > 0 && tv.Result == "clean" {
					tv.Result = "findings"
				}
			}
		}
		v.Targets = append(v.Targets, tv)
	}
	for _, f := range append(files(st, paths), probes...) {
		if f == nil {
			continue
		}
		ids := make([]string, 0, len(f.Open))
		for id := range f.Open {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			v.Open = append(v.Open, f.Open[id])
		}
	}
	// Most severe first, then by class and subject: what to look at first.
	sort.SliceStable(v.Open, func(i, j int) bool {
		a, b := v.Open[i], v.Open[j]
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		if a.Class != b.Class {
			return classRank(a.Class) < classRank(b.Class)
		}
		return a.Subject < b.Subject
	})
	for k, r := range st.Degraded {
		v.Degraded[k] = r
	}
	return v
}

// Escaped is the view with every finding's and file's text escaped
// (engine/sanitize), for a writer of it: the state holds text as found.
func (v StatusView) Escaped() StatusView {
	out := v
	out.Open = make([]*engine.OpenFinding, len(v.Open))
	for i, f := range v.Open {
		c := *f
		c.Subject, c.Server, c.Tool, c.Summary = sanitize.Text(c.Subject), sanitize.Text(c.Server), sanitize.Text(c.Tool), sanitize.Text(c.Summary)
		c.Details = escapeAll(c.Details)
		out.Open[i] = &c
	}
	out.Targets = make([]TargetView, len(v.Targets))
	for i, t := range v.Targets {
		t.Path, t.Error, t.Notes = sanitize.Text(t.Path), sanitize.Text(t.Error), escapeAll(t.Notes)
		out.Targets[i] = t
	}
	return out
}

func escapeAll(in []string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = sanitize.Text(s)
	}
	return out
}

func files(st *State, paths []string) []*FileState {
	out := make([]*FileState, len(paths))
	for i, p := range paths {
		out[i] = st.Files[p]
	}
	return out
}

func classRank(c engine.Class) int {
	for i, x := range engine.Classes {
		if x == c {
			return i
		}
	}
	return len(engine.Classes)
}
