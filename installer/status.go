package installer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/kardianos/service"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// serviceStatusView is the JSON form of 'service status'.
type serviceStatusView struct {
	Manager   string     `json:"manager"`
	Scope     string     `json:"scope"`
	Installed bool       `json:"installed"`
	State     string     `json:"state"` // running, stopped, not-installed, unknown
	Detail    string     `json:"detail,omitempty"`
	Unit      string     `json:"unit,omitempty"`
	Config    string     `json:"config,omitempty"`
	Events    string     `json:"events,omitempty"`
	LastEvent *lastEvent `json:"last_event"`
	Follow    []string   `json:"follow,omitempty"`
}

type lastEvent struct {
	Timestamp string `json:"timestamp"`
	Action    string `json:"action"`
	Message   string `json:"message,omitempty"`
}

// Status prints whether the service is installed and running, and its
// last event: as text, or as JSON with Format "json".
func (r *Runner) Status() error {
	v := serviceStatusView{Manager: r.m.Name, Scope: r.scopeWord(), Unit: r.unit, State: "not-installed"}
	v.Installed = r.installed()
	if v.Installed {
		s, err := r.controlService()
		if err != nil {
			return err
		}
		st, err := s.Status()
		switch {
		case err == nil && st == service.StatusRunning:
			v.State = "running"
		case err == nil && st == service.StatusStopped:
			v.State = "stopped"
		case errors.Is(err, service.ErrNotInstalled):
			v.State = "unknown"
			v.Detail = r.m.Name + " does not know the service (is the manager running? " + ControlHint(r.m, r.system, "status") + ")"
		case err != nil:
			v.State = "unknown"
			v.Detail = err.Error()
		default:
			v.State = "unknown"
		}
	}
	if cfgPath, err := r.configPath(r.opt.Config); err == nil {
		if _, err := os.Stat(cfgPath); err == nil {
			v.Config = cfgPath
		} else {
			cfgPath = ""
		}
		cfg, err := loadConfigQuiet(cfgPath)
		if err != nil {
			v.Detail = strings.TrimPrefix(v.Detail+"; config: "+err.Error(), "; ")
		} else {
			v.Events = cfg.Log.File
			if cfg.Log.File != "" {
				v.LastEvent, _ = readLastEvent(cfg.Log.File)
			}
			v.Follow = followLines(r.m, r.system, runtime.GOOS, cfg)
		}
	}
	if r.opt.Format == "json" {
		out, _ := json.MarshalIndent(v, "", "  ")
		fmt.Fprintf(r.opt.Stdout, "%s\n", out)
		return nil
	}
	w := r.opt.Stdout
	if v.Installed {
		fmt.Fprintf(w, "service:    installed (%s", r.kind())
		if v.Unit != "" {
			fmt.Fprintf(w, " %s", sanitize.Text(v.Unit))
		}
		fmt.Fprintln(w, ")")
	} else {
		fmt.Fprintf(w, "service:    not installed (%s, %s scope)\n", r.m.Name, r.scopeWord())
	}
	fmt.Fprintf(w, "state:      %s\n", v.State)
	if v.Detail != "" {
		fmt.Fprintf(w, "detail:     %s\n", sanitize.Text(v.Detail))
	}
	if v.Config != "" {
		fmt.Fprintf(w, "config:     %s\n", sanitize.Text(v.Config))
	} else {
		fmt.Fprintln(w, "config:     none (the built-in defaults)")
	}
	if v.Events != "" {
		fmt.Fprintf(w, "events:     %s\n", sanitize.Text(v.Events))
	}
	if v.LastEvent != nil {
		fmt.Fprintf(w, "last event: %s %s", v.LastEvent.Timestamp, sanitize.Text(v.LastEvent.Action))
		if v.LastEvent.Message != "" {
			fmt.Fprintf(w, ": %s", sanitize.Text(v.LastEvent.Message))
		}
		fmt.Fprintln(w)
	} else if v.Events != "" {
		fmt.Fprintln(w, "last event: none yet")
	}
	for i, l := range v.Follow {
		label := "follow:    "
		if i > 0 {
			label = "           "
		}
		fmt.Fprintf(w, "%s %s\n", label, l)
	}
	return nil
}

// readLastEvent returns the last event in a JSON-lines event log (nil when
// the file is missing or holds none). Only the tail of the file is read.
func readLastEvent(path string) (*lastEvent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	const tail = 256 << 10
	off := st.Size() - tail
	if off < 0 {
		off = 0
	}
	buf := make([]byte, st.Size()-off)
	n, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	lines := bytes.Split(buf[:n], []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		var ev struct {
			Timestamp string `json:"@timestamp"`
			Message   string `json:"message"`
			Event     struct {
				Action string `json:"action"`
			} `json:"event"`
		}
		if json.Unmarshal(lines[i], &ev) == nil && ev.Timestamp != "" {
			return &lastEvent{Timestamp: ev.Timestamp, Action: ev.Event.Action, Message: ev.Message}, nil
		}
	}
	return nil, nil
}
