package pin

import (
	"strings"
	"testing"
)

// Issue 12, item 9: a pin edited to exclude annotations, title and icons
// silently stopped reporting changes to them.
func TestExcludeWarningNamesWhatTheDefaultWouldPin(t *testing.T) {
	doc := func(exclude string) *Pin {
		t.Helper()
		p, err := Load("pin.json", []byte(`{"format": "`+Format2ID+`", "tool_version": "x", "fields": {"exclude": [`+exclude+`]}, "tools": [], "servers": [], "acceptances": []}`))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if w := ExcludeWarning(doc(`"_meta"`)); w != "" {
		t.Errorf("default exclude warned: %q", w)
	}
	if w := ExcludeWarning(doc(``)); w != "" {
		t.Errorf("a stricter exclude (nothing left out) warned: %q", w)
	}
	w := ExcludeWarning(doc(`"_meta", "title", "annotations", "icons"`))
	for _, want := range []string{"annotations, icons, title", "never reported", "default (_meta)"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	if w := ExcludeWarning(doc(`"annotations"`)); !strings.Contains(w, "field annotations,") || !strings.Contains(w, "change to it") {
		t.Errorf("one field: %q", w)
	}
	if w := ExcludeWarning(doc(`"x\u202ey"`)); strings.Contains(w, "\u202e") {
		t.Errorf("a bidi override reached the warning: %q", w)
	}
	if ExcludeWarning(nil) != "" || ExcludeWarning(&Pin{Format: Format1}) != "" {
		t.Error("nil or format 1 warned")
	}
}
