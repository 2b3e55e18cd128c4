package capture

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"
)

// Moved with AskYes and IsTerminal from cmd/descriptorpin/inventory_unit_test.go.

func TestConsentAnswer(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{{"y\n", true}, {"YES\n", true}, {" yes \n", true}, {"n\n", false}, {"\n", false}, {"", false}, {"yep\n", false}} {
		var w bytes.Buffer
		if got := AskYes(context.Background(), strings.NewReader(tc.in), &w); got != tc.want {
			t.Errorf("answer %q: consent = %v, want %v", tc.in, got, tc.want)
		}
		if tc.in == "" && w.String() != "\n" {
			t.Errorf("no answer should end the prompt's line, wrote %q", w.String())
		}
	}
}

func TestOnlyATerminalIsAsked(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, in := range map[string]io.Reader{"null device": null, "pipe": r, "reader": strings.NewReader("y\n")} {
		if IsTerminal(in) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
}
