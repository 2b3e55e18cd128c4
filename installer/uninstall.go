package installer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Uninstall stops the service and removes what install created, and
// nothing else: the pin, the state and the events stay.
func (r *Runner) Uninstall() error {
	w := r.opt.Stdout
	var removed, kept, warnings []string
	s, err := r.controlService()
	if err != nil {
		return err
	}
	data, uerr := os.ReadFile(r.unit)
	switch {
	case r.unit != "" && uerr == nil:
		if !r.ours(data) {
			return &Error{Msg: fmt.Sprintf("%s was not written by 'descriptorpin service install' (no install record names it, and it lacks the marker line)", sanitize.Text(r.unit)),
				Hint: "it is left as it is; remove it by hand if it is yours to remove"}
		}
		_ = s.Stop() // not running is fine
		if err := s.Uninstall(); err != nil {
			// The manager could not be told (no user session, say): remove
			// what install wrote anyway, and say so.
			warnings = append(warnings, fmt.Sprintf("%s did not answer (%s); removed the files anyway (%s)",
				r.m.Name, sanitize.Text(err.Error()), r.reloadHint()))
			if err := os.Remove(r.unit); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("removing %q: %w", sanitize.Text(r.unit), err)
			}
			if wd := WantsDir(r.m, r.system, r.unit); wd != "" {
				link := filepath.Join(wd, filepath.Base(r.unit))
				if dst, err := os.Readlink(link); err == nil && dst == r.unit {
					os.Remove(link)
				}
			}
		}
		removed = append(removed, r.unit+" ("+r.kind()+", stopped and disabled)")
	case r.unit == "" && r.installed():
		_ = s.Stop()
		if err := s.Uninstall(); err != nil {
			return r.managerErr("uninstall", err)
		}
		removed = append(removed, fmt.Sprintf("%s %q", r.kind(), NameFor(r.m)))
	}

	rec := r.record
	if rec != nil {
		if rec.ConfigCreated {
			sum, err := fileSHA256(rec.Config)
			switch {
			case errors.Is(err, fs.ErrNotExist):
			case err != nil:
				kept = append(kept, rec.Config+" (config: "+err.Error()+")")
			case sum == rec.ConfigSHA256:
				if err := os.Remove(rec.Config); err != nil {
					return fmt.Errorf("removing the config: %w", err)
				}
				removed = append(removed, rec.Config+" (the default config install wrote, unchanged)")
			default:
				kept = append(kept, rec.Config+" (config: changed since install, so it is yours now)")
			}
		} else if rec.Config != "" {
			kept = append(kept, rec.Config+" (config: it was there before install)")
		}
		if err := os.Remove(r.recordPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing the install record: %w", err)
		}
		removed = append(removed, r.recordPath+" (install record)")
		for _, d := range removeEmptyDirs(rec.Dirs) {
			removed = append(removed, d+"/ (empty directory install created)")
		}
	}
	if len(removed) == 0 {
		fmt.Fprintf(w, "The DescriptorPin service is not installed here (no install record at %s, no %s %s unit): nothing to remove.\n",
			sanitize.Text(r.recordPath), r.m.Name, r.scopeWord())
		return nil
	}

	// What stays, by design.
	cfgPath := ""
	if rec != nil {
		cfgPath = rec.Config
	}
	if cfg, err := loadConfigQuiet(cfgPath); err == nil {
		for _, k := range [][2]string{{cfg.Pin, "pin"}, {cfg.StateDir, "state"}, {cfg.Log.File, "events"}} {
			if _, err := os.Stat(k[0]); k[0] != "" && err == nil {
				kept = append(kept, k[0]+" ("+k[1]+")")
			}
		}
	}
	fmt.Fprintln(w, "Uninstalled the DescriptorPin service.")
	for _, p := range removed {
		fmt.Fprintf(w, "  removed %s\n", sanitize.Text(p))
	}
	for _, p := range kept {
		fmt.Fprintf(w, "  kept    %s\n", sanitize.Text(p))
	}
	for _, l := range warnings {
		fmt.Fprintf(r.opt.Stderr, "descriptorpin: warning: %s\n", l)
	}
	return nil
}
