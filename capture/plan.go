package capture

import (
	"os/exec"
	"regexp"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/redact"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// CommandLine renders the command line a stdio server is launched with,
// for a person to consent to: the command and arguments as the config
// writes them (a ${env:TOKEN} reference is shown as written, never its
// value), secrets redacted, quoted the way a POSIX shell would need, and
// anything invisible shown escaped.
func CommandLine(s *engine.Server) string {
	parts := []string{shellQuote(s.Command)}
	for _, a := range redact.Args(s.Args) {
		parts = append(parts, shellQuote(a))
	}
	return sanitize.Text(strings.Join(parts, " "))
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9@%+=:,./_-]+$`)

func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Program says which executable a stdio server's command resolves to on
// this host (through PATH, as the launch will), so a person sees which
// npx would run; the error says why it would not start.
func Program(s *engine.Server, opt Options) (string, error) {
	if opt.Lookup == nil {
		opt.Lookup = func(string) (string, bool) { return "", false }
	}
	name, err := resolve(s.Command, opt.Lookup, opt.Home)
	if err != nil {
		return "", err
	}
	return exec.LookPath(name)
}
