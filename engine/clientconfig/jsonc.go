package clientconfig

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

var bom = []byte("\xef\xbb\xbf")

// loadJSON parses JSON or JSONC. It returns nil and no error for a
// document with nothing but whitespace and comments.
//
// Plain JSON goes straight to jsonv. JSONC is first standardised by hujson,
// which blanks comments and trailing commas with spaces so every byte
// offset (and so every line and column jsonv reports) stays that of the
// original file; jsonv then applies its strict rules to the result. Before
// hujson (which recurses once per nesting level) sees the input, a flat
// scan rejects nesting deeper than engine.MaxDepth.
func (p *parser) loadJSON(data []byte) (*node, error) {
	work := data
	if bytes.HasPrefix(work, bom) {
		work = append([]byte("   "), work[3:]...)
	}
	p.data, p.starts = work, nil
	sc := scanJSONC(work)
	if sc.empty {
		return nil, nil
	}
	if sc.deepOff >= 0 {
		if _, err := jsonv.Parse(work); err != nil && !sc.jsonc {
			return nil, p.syntax(err)
		}
		line, col := p.offPos(sc.deepOff)
		return nil, &engine.InputError{File: p.file, Line: line, Col: col, Msg: "invalid JSON: nesting deeper than " + strconv.Itoa(engine.MaxDepth) + " levels"}
	}
	v, err := jsonv.Parse(work)
	if err == nil {
		return fromJSON(&v), nil
	}
	if !sc.jsonc {
		return nil, p.syntax(err)
	}
	// hujson standardises in place: give it a copy.
	std, herr := hujson.Standardize(append([]byte(nil), work...))
	if herr != nil {
		return nil, p.hujsonErr(herr)
	}
	if len(std) != len(work) {
		// Offsets would no longer be the file's: never expected.
		return nil, &engine.InputError{File: p.file, Msg: "invalid JSONC: could not remove comments without moving text"}
	}
	p.data, p.starts = std, nil
	v, err = jsonv.Parse(std)
	if err != nil {
		return nil, p.syntax(err)
	}
	return fromJSON(&v), nil
}

// syntax turns a jsonv error into an InputError. The one jsonv message that
// quotes input text (a number out of range) is rewritten: the number could
// be a mistyped secret.
func (p *parser) syntax(err error) error {
	var je *jsonv.Error
	if errors.As(err, &je) {
		msg := je.Msg
		if strings.HasPrefix(msg, "number ") && strings.Contains(msg, "outside the range") {
			msg = "a number is outside the range of a 64-bit float"
		}
		return &engine.InputError{File: p.file, Path: je.Path, Line: je.Line, Col: je.Col, Msg: "invalid JSON: " + msg}
	}
	return &engine.InputError{File: p.file, Msg: "invalid JSON"}
}

var hujsonPos = regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)

// hujsonErr keeps hujson's position and its message, except for "invalid
// literal", which quotes the literal (a string that may hold a secret).
func (p *parser) hujsonErr(err error) error {
	m := hujsonPos.FindStringSubmatch(err.Error())
	if m == nil {
		return &engine.InputError{File: p.file, Msg: "invalid JSONC"}
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	msg := m[3]
	if strings.HasPrefix(msg, "invalid literal") {
		msg = "invalid value (a malformed string, number or literal)"
	}
	return &engine.InputError{File: p.file, Line: line, Col: col, Msg: "invalid JSONC: " + msg}
}

type jsoncScan struct {
	empty   bool // nothing but whitespace and comments
	jsonc   bool // has a comment or a trailing comma
	deepOff int  // offset of the first bracket past the depth cap, or -1
}

// scanJSONC tokenises just enough of JSONC to measure nesting, find
// comments and trailing commas, and tell an empty document. It reads
// strings and comments exactly as hujson does, so brackets it skips are
// brackets hujson skips too.
func scanJSONC(b []byte) jsoncScan {
	s := jsoncScan{empty: true, deepOff: -1}
	depth := 0
	var last byte
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			s.jsonc = true
			if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(b)
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			s.jsonc = true
			if j := bytes.Index(b[i+2:], []byte("*/")); j >= 0 {
				i += 2 + j + 2
			} else {
				i = len(b)
			}
		case c == '"':
			s.empty = false
			i++
			for i < len(b) && b[i] != '"' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
			i++
			last = '"'
		default:
			s.empty = false
			switch c {
			case '{', '[':
				depth++
				if depth > engine.MaxDepth {
					s.deepOff = i
					return s
				}
			case '}', ']':
				if last == ',' {
					s.jsonc = true
				}
				depth--
			}
			last = c
			i++
		}
	}
	return s
}
