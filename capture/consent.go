package capture

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// NeedsConsent lists the servers whose capture runs a command from the
// config: the stdio servers. Nothing of theirs runs without consent.
func NeedsConsent(servers []*engine.Server) []*engine.Server {
	var stdio []*engine.Server
	for _, s := range servers {
		if s.Transport == "stdio" {
			stdio = append(stdio, s)
		}
	}
	return stdio
}

// ConsentNotes say what running a stdio server means on this host, for a
// person to consent to: the program its command resolves to (or why it
// would not start) and the env keys the config gives it. They are
// sanitised.
func ConsentNotes(s *engine.Server, opt Options) []string {
	var notes []string
	if p, err := Program(s, opt); err == nil {
		notes = append(notes, "runs "+sanitize.Text(p))
	} else {
		notes = append(notes, "will not start: "+sanitize.Text(err.Error()))
	}
	if len(s.EnvKeys) > 0 {
		notes = append(notes, "env from the config: "+sanitize.Text(strings.Join(s.EnvKeys, ", ")))
	}
	return notes
}

// IsTerminal reports whether r is a character device other than the null
// device: a terminal, where a person can answer.
func IsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
		return false
	}
	return true
}

// AskYes reads one answer line; only "y" or "yes" is consent, and a
// cancelled ctx is a no.
func AskYes(ctx context.Context, r io.Reader, w io.Writer) bool {
	ans := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		ans <- line
	}()
	select {
	case line := <-ans:
		if !strings.HasSuffix(line, "\n") {
			fmt.Fprintln(w) // no answer: end the prompt's line
		}
		a := strings.ToLower(strings.TrimSpace(line))
		return a == "y" || a == "yes"
	case <-ctx.Done():
		return false
	}
}
