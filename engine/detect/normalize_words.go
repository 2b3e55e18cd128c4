package detect

import "strings"

// Word repairs after normalisation (issue 12 item 22), each guided by
// the signals' own vocabulary, so ordinary text is left alone:
//
//   - leetspeak digits inside a word are read as the letters they imitate
//     when that gives a word the signals know and the word as written is
//     not one ("1gn0re" reads "ignore"; "base64", "s3" and "v2" stay);
//   - a word broken by a single line break is joined when the halves are
//     not words the signals know and the whole is ("Ign\nore" reads
//     "ignore"; "call\nignore" stays two words).
//
// Markdown emphasis, HTML character references, soft hyphens and
// variation selectors are handled while normalising (normASCII,
// normRune).

var leet = [256]byte{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's'}

// known reports a word the signals know: an anchor or a lexicon word.
func known(w string) bool {
	if anchorShape.has(w) {
		if _, ok := anchorIDs[w]; ok {
			return true
		}
	}
	if lexShape.has(w) {
		if f, ok := lexicon[w]; ok && f&^kPhrase != 0 {
			return true
		}
	}
	return false
}

func repairWords(a *Text) {
	s := a.norm
	var b []byte // a copy, made on the first leet repair
	for i := 0; i < len(s); {
		if !isLeetWordByte(s[i]) {
			i++
			continue
		}
		j := i
		letters, digits := 0, 0
		for j < len(s) && isLeetWordByte(s[j]) {
			if isLetterByte(s[j]) {
				letters++
			} else {
				digits++
			}
			j++
		}
		if letters >= 2 && digits >= 1 && j-i <= 24 {
			var buf [24]byte
			if dec, ok := leetReads(s[i:j], buf[:0]); ok {
				if b == nil {
					b = []byte(s)
				}
				copy(b[i:j], dec)
			}
		}
		i = j
	}
	if b != nil {
		a.norm = string(b) // same length: offsets still hold
		s = a.norm
	}
	if strings.IndexByte(s, '\n') < 0 {
		return
	}
	var out []byte
	var from []int
	last := 0
	for k := 1; k+1 < len(s); k++ {
		if s[k] != '\n' || !isLetterByte(s[k-1]) || !isLetterByte(s[k+1]) {
			continue
		}
		i := k - 1
		for i > 0 && isLetterByte(s[i-1]) {
			i--
		}
		j := k + 1
		for j < len(s) && isLetterByte(s[j]) {
			j++
		}
		left, right := s[i:k], s[k+1:j]
		if known(left) || known(right) || !known(left+right) {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(s))
			from = make([]int, 0, len(s))
		}
		for x := last; x < k; x++ {
			out = append(out, s[x])
			from = append(from, x)
		}
		last = k + 1 // drop the line break
	}
	if out == nil {
		return
	}
	for x := last; x < len(s); x++ {
		out = append(out, s[x])
		from = append(from, x)
	}
	a.rebuild(out, from)
}

// leetReads returns the word a run of leet word bytes w reads as, in
// buf, and whether repairWords puts it in w's place: it is a word the
// signals know and w as written is not.
func leetReads(w string, buf []byte) ([]byte, bool) {
	dec := append(buf, w...)
	for k := range dec {
		if l := leet[dec[k]]; l != 0 {
			dec[k] = l
		}
	}
	return dec, known(string(dec)) && !known(strings.Trim(w, "@$"))
}

func isLeetWordByte(c byte) bool {
	return isLetterByte(c) || c >= '0' && c <= '9' || c == '@' || c == '$'
}

// joinSeparatedLetters joins single letters separated by one '-', '.' or
// '_' ("i-g-n-o-r-e", "i.g.n.o.r.e") when the run has five letters or
// more, or three or more that make a word the signals know ("a-l-l").
// Abbreviations ("u.s.", "e.g.") are shorter; hyphenated words have
// longer parts.
func joinSeparatedLetters(a *Text) {
	s := a.norm
	if !strings.ContainsAny(s, "-._") {
		return
	}
	var out []byte
	var from []int
	last := 0
	for i := 0; i+2 < len(s); {
		if !isLetterByte(s[i]) || i > 0 && isLeetWordByte(s[i-1]) {
			i++
			continue
		}
		sep := s[i+1]
		if sep != '-' && sep != '.' && sep != '_' {
			i++
			continue
		}
		j, n := i, 1
		for j+2 < len(s) && s[j+1] == sep && isLetterByte(s[j+2]) && (j+3 == len(s) || !isLetterByte(s[j+3])) {
			j += 2
			n++
		}
		if j+1 < len(s) && isLeetWordByte(s[j+1]) {
			i = j + 1
			continue
		}
		var w []byte
		for k := i; k <= j; k += 2 {
			w = append(w, s[k])
		}
		if n >= 5 || n >= 3 && known(string(w)) {
			if out == nil {
				out = make([]byte, 0, len(s))
				from = make([]int, 0, len(s))
			}
			for x := last; x < i; x++ {
				out = append(out, s[x])
				from = append(from, x)
			}
			for k := i; k <= j; k += 2 {
				out = append(out, s[k])
				from = append(from, k)
			}
			last = j + 1
		}
		i = j + 1
	}
	if out == nil {
		return
	}
	for x := last; x < len(s); x++ {
		out = append(out, s[x])
		from = append(from, x)
	}
	a.rebuild(out, from)
}
