package installer

import (
	"fmt"
	"io"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// Render prints a plan for a person ('service install --dry-run'): every
// file with its contents, every command, and what the service will run.
// It reads nothing and changes nothing.
func Render(w io.Writer, p *Plan) {
	fmt.Fprintf(w, "Would install the DescriptorPin service (%s); --dry-run: nothing is changed.\n", p.Kind)
	if p.CreateConfig {
		fmt.Fprintf(w, "  write     %s (the commented default config, mode 0600)\n", sanitize.Text(p.Config))
	} else {
		fmt.Fprintf(w, "  config    %s (exists, left as it is)\n", sanitize.Text(p.Config))
	}
	if p.StateDir != "" {
		fmt.Fprintf(w, "  mkdir     %s (the agent's output goes there)\n", sanitize.Text(p.StateDir))
	}
	switch {
	case p.Unit == "":
		fmt.Fprintf(w, "  register  %s %q (no file: the service control manager keeps it)\n", p.Kind, p.Name)
		for _, k := range sortedKeys(p.service.EnvVars) {
			fmt.Fprintf(w, "  env       %s=%s\n", k, sanitize.Text(p.service.EnvVars[k]))
		}
	case p.UnitContent == "":
		fmt.Fprintf(w, "  write     %s (kardianos/service's %s script)\n", sanitize.Text(p.Unit), p.Manager.Name)
	default:
		fmt.Fprintf(w, "  write     %s (mode 0644%s):\n", sanitize.Text(p.Unit), unitNote(p.UnitFound))
		for _, l := range strings.Split(strings.TrimSuffix(p.UnitContent, "\n"), "\n") {
			// Tabs stay tabs (a plist is indented with them); anything
			// else invisible is shown escaped.
			parts := strings.Split(l, "\t")
			for i := range parts {
				parts[i] = sanitize.Text(parts[i])
			}
			fmt.Fprintf(w, "            | %s\n", strings.Join(parts, "\t"))
		}
	}
	if p.WantsLink != "" {
		fmt.Fprintf(w, "  link      %s -> %s\n", sanitize.Text(p.WantsLink), sanitize.Text(p.Unit))
	}
	fmt.Fprintf(w, "  record    %s (what install created, for uninstall)\n", sanitize.Text(p.Record))
	for _, c := range p.Commands {
		fmt.Fprintf(w, "  run       %s\n", sanitize.Text(c))
	}
	if l := enabledLine(p.Manager, p.System); l != "" {
		fmt.Fprintln(w, "  enabled   "+l)
	}
	if !p.Start {
		fmt.Fprintln(w, "  not started (--no-start): 'descriptorpin service start' starts it")
	}
	writeTail(w, p, p.Cfg, p.PinExists)
}

// unitNote says what writing the unit does to what is there now.
func unitNote(f UnitFound) string {
	switch f {
	case UnitOurs:
		return ", replacing one install wrote before"
	case UnitForeign:
		return "; a file install did not write is there: install will refuse to replace it"
	}
	return ""
}
