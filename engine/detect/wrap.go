package detect

import "strings"

// Hard-wrapped prose. Reference manuals, docstrings and man pages wrap a
// sentence over several lines ("the assistant MUST send the\n decoded
// values with an HTTP POST to\n https://…"). A line break is a sentence
// boundary to every signal, so a wrapped order would be read as three
// fragments, none of which says anything. joinWrapped turns a line break
// that continues a sentence into a blank, byte for byte, so offsets into
// the original stay as they are: the line before it is long (prose, not
// a heading or a "key  value" row) and does not end a sentence, and the
// next line is not blank and does not open a list item, a table row, a
// heading, a quote or a code fence.

// wrapMinLine is the shortest line read as wrapped prose.
const wrapMinLine = 35

func joinWrapped(a *Text) {
	s := a.norm
	var b []byte
	start := 0
	for k := 0; k < len(s); k++ {
		if s[k] != '\n' {
			continue
		}
		line := s[start:k]
		start = k + 1
		if !wrapsAt(line, s[k+1:]) {
			continue
		}
		if b == nil {
			b = []byte(s)
		}
		b[k] = ' '
	}
	if b != nil {
		a.norm = string(b)
	}
}

func wrapsAt(line, next string) bool {
	if len(line) < wrapMinLine {
		return false
	}
	switch line[len(line)-1] {
	case '.', ':', '!', '?', ';', ' ', '`', '|':
		return false
	}
	if strings.HasSuffix(line, "。") || strings.HasSuffix(line, "｡") {
		return false // a CJK full stop ends the sentence too
	}
	for len(next) > 0 && next[0] == ' ' {
		next = next[1:]
	}
	if next == "" {
		return false
	}
	switch c := next[0]; {
	case c == '\n', c == '-', c == '*', c == '#', c == '|', c == '>', c == '`', c == '+', c == '=', c == '[', c == '<', c == '{', c == '}':
		return false
	case c >= '0' && c <= '9':
		for i := 1; i < len(next) && i < 4; i++ {
			if next[i] == '.' || next[i] == ')' {
				return false // a numbered list item
			}
			if next[i] < '0' || next[i] > '9' {
				break
			}
		}
	}
	return true
}
