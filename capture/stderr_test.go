package capture

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/descriptorpin/descriptorpin/engine"
)

// A server that prints its env secrets (and a credential from its
// arguments) to stderr: the stderr tail in the failure reason, which
// reaches inventory output and events, shows none of them.
func TestStderrTailRedactsKnownEnvAndArgValues(t *testing.T) {
	t.Parallel()
	const pw, tok, dsn = "hunter2-short", "callerTok7", "postgres://admin:Pa55word@db/prod"
	s := stdioServer("leak", "-mode", "leak-args", dsn)
	s.Env = map[string]string{"DB_PASSWORD": pw, "API_TOKEN": "${env:DP_TEST_TOKEN}"}
	s.EnvKeys = []string{"API_TOKEN", "DB_PASSWORD"}
	r := Capture(context.Background(), s, "", opts(20*time.Second, "DP_TEST_TOKEN", tok))
	if r.Err == nil {
		t.Fatal("the leaking server was captured")
	}
	msg := r.Err.Error()
	if !strings.Contains(msg, "its stderr ends:") || !strings.Contains(msg, "auth failed") {
		t.Fatalf("reason %q lacks the stderr tail", msg)
	}
	for _, sec := range []string{pw, tok, "Pa55word"} {
		if strings.Contains(msg, sec) {
			t.Errorf("stderr tail leaks %q: %s", sec, msg)
		}
	}
	_ = engine.Absent
}

func TestTailRedactsASecretCutByTheBufferStart(t *testing.T) {
	tl := &tail{max: 16, known: [][]byte{[]byte("abcdefghijklmnopqrstuvwxyz")}}
	tl.Write([]byte("x abcdefghijklmnopqrstuvwxyz"))
	if got := tl.lastLine(); strings.Contains(got, "qrstuvwxyz") {
		t.Errorf("lastLine() = %s: the end of a secret cut by the buffer start is shown", got)
	}
}
