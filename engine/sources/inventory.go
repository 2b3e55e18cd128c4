package sources

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/engine/jsonv"
)

// ToInventory builds the inventory document for servers read from one
// source and parses it with inventory.Parse, so every check an
// inventory file gets (names, duplicate tools, ambiguous keys, field
// types) applies to what a client cached, and all downstream code works
// unchanged. file names the source in messages (for example
// "…/state.vscdb#mcpToolCache").
//
// Each server object carries, besides name, transport and tools:
//   - "client": the client that received the list;
//   - "instructions": the server's instructions, when known. Instructions
//     are model-visible text; the inventory parser does not read the field
//     today, so callers that scan text take it from Server.Instructions
//     (and a later inventory version can read it from the document);
//   - "received_at": when the list was received, when known.
//
// The transport is "unknown": a cache says what a server sent, not how it
// was launched (the client config says that). Client is set on each
// engine.Server of the result.
func ToInventory(file string, servers []Server) (*engine.Inventory, error) {
	doc := AppendInventory(nil, servers)
	inv, err := inventory.Parse(file, doc)
	if err != nil {
		return nil, err
	}
	for i, s := range inv.Servers {
		if i < len(servers) {
			s.Client = servers[i].Client
		}
	}
	return inv, nil
}

// AppendInventory appends the inventory document ToInventory parses.
func AppendInventory(dst []byte, servers []Server) []byte {
	dst = append(dst, `{"servers":[`...)
	for i, s := range servers {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"name":`...)
		dst = appendString(dst, s.Name)
		dst = append(dst, `,"transport":"unknown"`...)
		if s.Client != "" {
			dst = append(dst, `,"client":`...)
			dst = appendString(dst, s.Client)
		}
		if s.Instructions != "" {
			dst = append(dst, `,"instructions":`...)
			dst = appendString(dst, s.Instructions)
		}
		if s.ReceivedAt != "" {
			dst = append(dst, `,"received_at":`...)
			dst = appendString(dst, s.ReceivedAt)
		}
		dst = append(dst, `,"tools":[`...)
		for j := range s.Tools {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = appendValue(dst, &s.Tools[j])
		}
		dst = append(dst, "]}"...)
	}
	return append(dst, "]}\n"...)
}

// appendValue writes v back as JSON, keeping member order and number
// literals as written (jsonv keeps both), so the inventory holds exactly
// what the client stored.
func appendValue(dst []byte, v *jsonv.Value) []byte {
	switch v.Kind {
	case jsonv.Null:
		return append(dst, "null"...)
	case jsonv.Bool:
		return strconv.AppendBool(dst, v.Bool)
	case jsonv.Number:
		return append(dst, v.Str...)
	case jsonv.String:
		return appendString(dst, v.Str)
	case jsonv.Array:
		dst = append(dst, '[')
		for i := range v.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendValue(dst, &v.Items[i])
		}
		return append(dst, ']')
	case jsonv.Object:
		dst = append(dst, '{')
		for i := range v.Members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, v.Members[i].Key)
			dst = append(dst, ':')
			dst = appendValue(dst, &v.Members[i].Value)
		}
		return append(dst, '}')
	}
	panic(fmt.Sprintf("sources: unknown JSON kind %d", v.Kind))
}

// appendString writes s as a JSON string. jsonv only produces valid
// UTF-8, so every rune is written raw except what JSON requires escaped.
func appendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return append(dst, '"')
}

// FromInventory reads back a document AppendInventory wrote: the servers
// with their client, instructions, time received and raw tools. The
// service keeps the lists it assembled from logs this way across
// restarts (a log is read incrementally, so its old lists are not read
// again).
func FromInventory(file string, doc []byte) ([]Server, error) {
	root, err := parseDoc(file, doc)
	if err != nil {
		return nil, err
	}
	sv, ok := root.Get("servers")
	if !ok || sv.Kind != jsonv.Array {
		return nil, &engine.InputError{File: file, Path: "$", Msg: "no 'servers' list"}
	}
	out := make([]Server, 0, len(sv.Items))
	for i := range sv.Items {
		o := &sv.Items[i]
		name, _ := str(o, "name")
		if name == "" {
			return nil, &engine.InputError{File: file, Path: fmt.Sprintf("$.servers[%d]", i), Msg: "server has no name"}
		}
		s := Server{Name: name}
		s.Client, _ = str(o, "client")
		s.Instructions, _ = str(o, "instructions")
		s.ReceivedAt, _ = str(o, "received_at")
		if tv, ok := o.Get("tools"); ok && tv.Kind == jsonv.Array {
			s.Tools = tv.Items
		}
		out = append(out, s)
	}
	return out, nil
}
