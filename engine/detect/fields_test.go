package detect

import (
	"strings"
	"testing"

	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// firstWordFields is firstWord as it was written: the first of
// strings.FieldsFunc's fields.
func firstWordFields(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r == '\'') })
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

var firstFieldCases = []string{
	"", " ", "a", "call this first", "  don't tell", "1. run it", "é then", "\xff\xfeabc def", "x\u00e9y", "'quoted' words",
	"send_email now", "--- read", "ends with space ", "ç", "a\xc3", "tell\u2019s",
}

func TestFirstFieldMatchesFieldsFunc(t *testing.T) {
	for _, s := range firstFieldCases {
		if got, want := firstField(s), firstWordFields(s); got != want {
			t.Errorf("firstField(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzFirstField(f *testing.F) {
	for _, s := range firstFieldCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := firstField(s), firstWordFields(s); got != want {
			t.Fatalf("firstField(%q) = %q, want %q", s, got, want)
		}
	})
}

var pathIdentCases = []string{"", "a", "A1", "1a", "-a", "a-b", "a_b", "$ref", "a.b", "a b", "é", "aé", "a\xff", "properties", "x9-", "_", "$"}

func TestPathIdentMatchesJSONV(t *testing.T) {
	for _, s := range pathIdentCases {
		if got, want := pathIdent(s), jsonv.IsPathIdent(s); got != want {
			t.Errorf("pathIdent(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzPathIdent(f *testing.F) {
	for _, s := range pathIdentCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := pathIdent(s), jsonv.IsPathIdent(s); got != want {
			t.Fatalf("pathIdent(%q) = %v, want %v", s, got, want)
		}
	})
}

var toLowerCases = []string{"", "abc", "crm-hub-000", "Get_Env", "ÀB", "straße", "a\xffb", "İstanbul", "ALL CAPS", "x9_y"}

func TestToLowerMatchesStrings(t *testing.T) {
	for _, s := range toLowerCases {
		if got, want := toLower(s), strings.ToLower(s); got != want {
			t.Errorf("toLower(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzToLower(f *testing.F) {
	for _, s := range toLowerCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := toLower(s), strings.ToLower(s); got != want {
			t.Fatalf("toLower(%q) = %q, want %q", s, got, want)
		}
	})
}
