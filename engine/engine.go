// Package engine holds DescriptorPin's domain types: inventories, servers
// and tools, findings and their classes, severities, events, input errors
// and the size caps. It is the small package every engine room imports
// (inventory, pin, detect, launch, scan, report, monitor), so it imports
// none of them.
//
// Nothing under engine/ does I/O, logs, or reads the clock: callers hand in
// bytes, names and times, and get values back. The same input always gives
// the same output.
package engine

import (
	"errors"
	"fmt"

	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// Size and shape caps for untrusted documents. Callers check MaxFileBytes
// before reading a file whole; the parser enforces the depth cap.
const (
	// MaxFileBytes is the largest inventory, pin or client config read.
	MaxFileBytes = 64 << 20
	// MaxDepth is the deepest nesting of JSON arrays and objects accepted.
	MaxDepth = 128
)

// InputError is a problem with an input document: the file, the place in it
// and what is wrong. It maps to exit code 2.
type InputError struct {
	File string // as the user named it
	Path string // JSON path, "$" for the root; empty when not known
	Line int    // 1-based; 0 when not known
	Col  int
	Msg  string
	Err  error // an underlying sentinel, if any
}

// Unwrap returns the underlying sentinel.
func (e *InputError) Unwrap() error { return e.Err }

func (e *InputError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
	}
	if e.Path != "" {
		return fmt.Sprintf("%s: %s: %s", loc, e.Path, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

// SyntaxError turns a jsonv parse error into an *InputError of file, with
// the JSON path and position of the problem.
func SyntaxError(file string, err error) error {
	var je *jsonv.Error
	if errors.As(err, &je) {
		return &InputError{File: file, Path: je.Path, Line: je.Line, Col: je.Col, Msg: "invalid JSON: " + je.Msg}
	}
	return &InputError{File: file, Msg: err.Error()}
}
