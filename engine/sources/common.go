package sources

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/canon"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
)

// parseDoc parses a whole JSON document (a cache value, a manifest, a
// tool file) and returns a positioned *engine.InputError on failure.
func parseDoc(file string, data []byte) (jsonv.Value, error) {
	if len(data) > engine.MaxFileBytes {
		return jsonv.Value{}, &engine.InputError{File: file, Msg: fmt.Sprintf("larger than the %d MiB cap", engine.MaxFileBytes>>20)}
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		var je *jsonv.Error
		if errors.As(err, &je) {
			return jsonv.Value{}, &engine.InputError{File: file, Path: je.Path, Line: je.Line, Col: je.Col, Msg: "invalid JSON: " + je.Msg}
		}
		return jsonv.Value{}, &engine.InputError{File: file, Msg: "invalid JSON: " + err.Error()}
	}
	return v, nil
}

// docErr is an error at a value of a parsed document.
func docErr(file string, data []byte, v *jsonv.Value, path, format string, args ...any) error {
	if data == nil { // a list assembled from log lines: no position to give
		return &engine.InputError{File: file, Path: path, Msg: fmt.Sprintf(format, args...)}
	}
	line, col := jsonv.Position(data, v.Off)
	return &engine.InputError{File: file, Path: path, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// q quotes a name from the input with anything invisible made visible.
func q(s string) string { return "'" + sanitize.Text(s) + "'" }

// checkTools checks a tool list the way the inventory parser will, so a
// bad list fails for its source with the source's own place in the
// message: each tool an object with a non-blank string name, no name
// twice, at most MaxTools.
func checkTools(file string, data []byte, tools []jsonv.Value, path string) error {
	if len(tools) > MaxTools {
		return &engine.InputError{File: file, Path: path, Msg: fmt.Sprintf("more than %d tools", MaxTools)}
	}
	seen := map[string]int{}
	for i := range tools {
		t := &tools[i]
		tp := fmt.Sprintf("%s[%d]", path, i)
		if t.Kind != jsonv.Object {
			return docErr(file, data, t, tp, "tool is not an object (got %s)", t.Kind)
		}
		nv, ok := t.Get("name")
		if !ok || nv.Kind != jsonv.String || canon.Strip(nv.Str) == "" {
			return docErr(file, data, t, tp+".name", "tool has no name")
		}
		k := canon.Strip(nv.Str)
		if prev, dup := seen[k]; dup {
			return docErr(file, data, t, tp+".name", "tool %s is listed twice (first at %s[%d])", q(k), path, prev)
		}
		seen[k] = i
	}
	return nil
}

// without returns a copy of the object v without the named members.
func without(v jsonv.Value, drop ...string) jsonv.Value {
	out := v
	out.Members = make([]jsonv.Member, 0, len(v.Members))
	for _, m := range v.Members {
		skip := false
		for _, d := range drop {
			if m.Key == d {
				skip = true
				break
			}
		}
		if !skip {
			out.Members = append(out.Members, m)
		}
	}
	return out
}

// str returns the string member key of obj, or "".
func str(obj *jsonv.Value, key string) (string, bool) {
	if obj == nil || obj.Kind != jsonv.Object {
		return "", false
	}
	v, ok := obj.Get(key)
	if !ok || v.Kind != jsonv.String {
		return "", false
	}
	return v.Str, true
}

func clipInstructions(s string) string {
	if len(s) <= MaxInstructions {
		return s
	}
	n := MaxInstructions
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
