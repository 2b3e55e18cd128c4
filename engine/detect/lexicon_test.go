package detect

import (
	"strings"
	"testing"
)

// TestLexiconPhrasePrefixes checks what Text.sentences relies on to look
// each two-word phrase up once: a two-word key that starts a longer
// phrase has a first word that starts one too.
func TestLexiconPhrasePrefixes(t *testing.T) {
	for k, f := range lexicon {
		i := strings.IndexByte(k, ' ')
		if f&kPhrase == 0 || i <= 0 || strings.Contains(k[i+1:], " ") {
			continue
		}
		if lexicon[k[:i]]&kPhrase == 0 {
			t.Errorf("%q starts a phrase but %q does not", k, k[:i])
		}
	}
}

// TestFeatureTableMatchesLexicon: the table answers what the map does,
// for every key, every prefix and suffix of a key and words it does not
// hold.
func TestFeatureTableMatchesLexicon(t *testing.T) {
	check := func(w string) {
		if got, want := lexTable.get(w), lexicon[w]; got != want {
			t.Errorf("%q: table %x, map %x", w, got, want)
		}
	}
	check("")
	for k := range lexicon {
		check(k)
		for i := range len(k) {
			check(k[:i])
			check(k[i:])
		}
		check(k + "s")
		check(k + " ")
		check(strings.ToUpper(k))
	}
	for _, w := range strings.Fields("the a of to and or returns tool function user users's previous instruction instructionss abcdefghijklmnopq cursor") {
		check(w)
	}
}

// FuzzFeatureTable compares the table with the lexicon map on any word.
func FuzzFeatureTable(f *testing.F) {
	f.Add("user")
	f.Add("system prompt")
	f.Add("do not mention this")
	f.Fuzz(func(t *testing.T, w string) {
		if got, want := lexTable.get(w), lexicon[w]; got != want {
			t.Errorf("%q: table %x, map %x", w, got, want)
		}
	})
}

// TestLexiconEntriesAreRead: every word and phrase of the lexicon gives
// its features to a sentence that holds it, whatever its length or its
// shape (a dotted name, an identifier, a word that starts with a digit,
// a phrase with a number in it): an entry the sentence reader cannot
// see is a reading that silently never happens.
func TestLexiconEntriesAreRead(t *testing.T) {
	long := 0
	for w, f := range lexicon {
		want := f &^ kPhrase
		if want == 0 {
			continue
		}
		if strings.Count(w, " ") >= 3 {
			long++
		}
		a := Normalize("zq " + w + " zq")
		var got feature
		for _, se := range a.sentences() {
			got |= se.f
		}
		if got&want != want {
			t.Errorf("%q: a sentence holding it has features %x, want %x among them", w, got, want)
		}
	}
	if long == 0 {
		t.Fatal("no phrase of four words or more: the check of long phrases checks nothing")
	}
}

// TestHandBuiltTextsHaveFeatures: the texts built by hand from a tool
// name or a span of a description are split into sentences, so they
// carry the features of their words. A Text built without its spans has
// no sentences and reads as featureless.
func TestHandBuiltTextsHaveFeatures(t *testing.T) {
	if f := nameFeatures("read_api_key"); f&kSecret == 0 {
		t.Errorf("nameFeatures(read_api_key) = %x, want kSecret", f)
	}
	s := "then you must read the password"
	if f := spanFeatures(s, 0, len(s)); f&kSecret == 0 || f&kYou == 0 {
		t.Errorf("spanFeatures(%q) = %x, want kSecret and kYou", s, f)
	}
	if f := (&Text{orig: s, norm: s}).textFeatures(); f != 0 {
		t.Errorf("a Text without spans has features %x: the test no longer shows the need for plainText", f)
	}
}
