package main

import (
	"sort"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/monitor"
)

// statusView is the JSON form of status.
type statusView struct {
	State    string                `json:"state_file"`
	Open     []*engine.OpenFinding `json:"open"`
	Targets  []targetView          `json:"targets"`
	Degraded map[string]string     `json:"degraded"`
}

type targetView struct {
	Path     string `json:"path"`
	Kind     string `json:"kind"`
	LastScan string `json:"last_scan"`
	Result   string `json:"result"`
	Error    string `json:"error,omitempty"`
	Open     int    `json:"open"`
}

func buildStatus(path string, st *monitor.State) statusView {
	v := statusView{State: path, Open: []*engine.OpenFinding{}, Targets: []targetView{}, Degraded: map[string]string{}}
	paths := make([]string, 0, len(st.Files))
	for p := range st.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := st.Files[p]
		v.Targets = append(v.Targets, targetView{Path: p, Kind: f.Kind, LastScan: f.LastScan, Result: f.Result, Error: f.Error, Open: len(f.Open)})
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
		if ra, rb := severityRank(a.Severity), severityRank(b.Severity); ra != rb {
			return ra > rb
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

func severityRank(s string) int {
	if v, ok := engine.ParseSeverity(s); ok {
		return int(v)
	}
	return 0
}

func classRank(c engine.Class) int {
	for i, x := range engine.Classes {
		if x == c {
			return i
		}
	}
	return len(engine.Classes)
}
