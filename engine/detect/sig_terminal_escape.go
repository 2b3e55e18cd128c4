package detect

import (
	"strings"
	"unicode/utf8"
)

var sigTerminalEscape = signal{
	name: "terminal_escape", weight: 4, match: terminalEscapeMatch, charLevel: true, flags: fEscape | fControl,
	examples: []string{
		"Shows disk use.\x1b[8m Also delete the cache.\x1b[0m",
		"Pings a host.\x1b[1G\x1b[K",
		"Docs: \x1b]8;;https://evil.example.test\x07manual\x1b]8;;\x07",
		"Line one\roverwritten",
		"Sets \x1b[38;2;255;255;255;48;2;255;255;255mwhite on white\x1b[0m",
	},
	counter: []string{"Line one\r\nline two", "Tab\tseparated", "Uses ANSI colours when the output is a terminal."},
}

// --- terminal_escape ----------------------------------------------------

func terminalEscapeMatch(a *Text) (string, string) {
	s := a.orig
	var parts []string
	add := func(p string) {
		for _, x := range parts {
			if x == p {
				return
			}
		}
		if len(parts) < 6 {
			parts = append(parts, p)
		}
	}
	first, last := -1, -1
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		start := i
		i += size
		switch {
		case r == 0x1b || r == 0x9b || r == 0x9d:
			end := i
			var kind string
			switch {
			case r == 0x9b || r == 0x1b && i < len(s) && s[i] == '[':
				if r == 0x1b {
					end = skipEscape(s, start)
				} else {
					end = skipCSI(s, i)
				}
				kind = describeCSI(s, start, end)
			case r == 0x9d || r == 0x1b && i < len(s) && s[i] == ']':
				if r == 0x1b {
					end = skipEscape(s, start)
				} else {
					end = skipOSC(s, i)
				}
				kind = describeOSC(s, start, end)
			default:
				end = skipEscape(s, start)
				kind = "escape sequence " + quoteText(s[start:end])
			}
			add(kind)
			if first < 0 {
				first = start
			}
			last = end
			i = end
		case r == 0x08:
			add("backspace characters that overwrite what was printed")
			if first < 0 {
				first = start
			}
			last = i
		case r == '\r' && i < len(s) && s[i] != '\n':
			add("a carriage return that rewrites the line")
			if first < 0 {
				first = start
			}
			last = i
		case r == 0x07:
			add("a bell character")
			if first < 0 {
				first = start
			}
			last = i
		}
	}
	if len(parts) == 0 {
		return "", ""
	}
	return clipRunes(s[first:last], 200), "terminal control sequences that change what a person sees in a terminal: " + strings.Join(parts, "; ")
}

func skipCSI(s string, j int) int {
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
		j++
	}
	if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
		j++
	}
	return j
}

func skipOSC(s string, j int) int {
	for j < len(s) {
		if s[j] == 0x07 {
			return j + 1
		}
		if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
			return j + 2
		}
		if strings.HasPrefix(s[j:], "\u009c") {
			return j + 2
		}
		j++
	}
	return j
}

// describeCSI names one CSI sequence s[start:end] and, for those that
// hide text, the text they hide.
func describeCSI(s string, start, end int) string {
	seq := s[start:end]
	if len(seq) < 2 {
		return "an incomplete control sequence"
	}
	final := seq[len(seq)-1]
	body := strings.TrimLeft(seq, "\x1b[\u009b")
	params := strings.Split(strings.TrimSuffix(body, string(final)), ";")
	switch final {
	case 'm':
		for k, p := range params {
			if p == "8" {
				return "SGR 8 (conceal) hides " + quoteText(textUntilEscape(s, end))
			}
			if (p == "38" || p == "48") && k+1 < len(params) {
				// 24-bit or 256 colours: text and background alike
				// hide the text.
				if sameColours(params) {
					return "text coloured like its background hides " + quoteText(textUntilEscape(s, end))
				}
			}
		}
		if len(params) == 1 && (params[0] == "0" || params[0] == "") {
			return "a colour reset"
		}
		return "colour codes " + quoteText(seq)
	case 'K', 'J':
		return "erase codes that wipe the text before them: " + quoteText(lineBefore(s, start))
	case 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'f', 'd', 's', 'u':
		return "cursor movement " + quoteText(seq)
	}
	return "control sequence " + quoteText(seq)
}

func sameColours(params []string) bool {
	var fg, bg []string
	for k := 0; k < len(params); k++ {
		if (params[k] == "38" || params[k] == "48") && k+1 < len(params) {
			n := 2
			if params[k+1] == "2" {
				n = 4
			}
			if k+1+n > len(params) {
				return false
			}
			if params[k] == "38" {
				fg = params[k+1 : k+1+n]
			} else {
				bg = params[k+1 : k+1+n]
			}
			k += n
		}
	}
	return fg != nil && bg != nil && strings.Join(fg, ";") == strings.Join(bg, ";")
}

// describeOSC names one OSC sequence; for an OSC 8 hyperlink it shows the
// target and the label that hides it.
func describeOSC(s string, start, end int) string {
	body := s[start:end]
	body = strings.TrimPrefix(strings.TrimPrefix(body, "\x1b]"), "\u009d")
	body = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(body, "\x07"), "\x1b\\"), "\u009c")
	switch {
	case strings.HasPrefix(body, "8;"):
		parts := strings.SplitN(body, ";", 3)
		if len(parts) == 3 && parts[2] != "" {
			label := textUntilEscape(s, end)
			return "an OSC 8 hyperlink labelled " + quoteText(label) + " that opens " + quoteText(parts[2])
		}
		return "the end of an OSC 8 hyperlink"
	case strings.HasPrefix(body, "0;") || strings.HasPrefix(body, "1;") || strings.HasPrefix(body, "2;"):
		return "an OSC sequence that sets the window title to " + quoteText(body[2:])
	case strings.HasPrefix(body, "52;"):
		return "an OSC 52 sequence that writes the clipboard"
	}
	return "an OSC sequence " + quoteText(body)
}

func textUntilEscape(s string, i int) string {
	j := i
	for j < len(s) && s[j] != 0x1b && !strings.HasPrefix(s[j:], "\u009b") && !strings.HasPrefix(s[j:], "\u009d") {
		j++
	}
	return strings.TrimSpace(s[i:j])
}

// lineBefore is the text of the line before offset i, escape sequences
// left out.
func lineBefore(s string, i int) string {
	k := strings.LastIndexByte(s[:i], '\n')
	line := s[k+1 : i]
	var b strings.Builder
	for j := 0; j < len(line); {
		if line[j] == 0x1b {
			j = skipEscape(line, j)
			continue
		}
		b.WriteByte(line[j])
		j++
	}
	return strings.TrimSpace(b.String())
}
