package sources

import (
	"fmt"

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
		dst = jsonv.AppendString(dst, s.Name)
		dst = append(dst, `,"transport":"unknown"`...)
		if s.Client != "" {
			dst = append(dst, `,"client":`...)
			dst = jsonv.AppendString(dst, s.Client)
		}
		if s.Instructions != "" {
			dst = append(dst, `,"instructions":`...)
			dst = jsonv.AppendString(dst, s.Instructions)
		}
		if s.ReceivedAt != "" {
			dst = append(dst, `,"received_at":`...)
			dst = jsonv.AppendString(dst, s.ReceivedAt)
		}
		dst = append(dst, `,"tools":[`...)
		for j := range s.Tools {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = jsonv.Append(dst, &s.Tools[j])
		}
		dst = append(dst, "]}"...)
	}
	return append(dst, "]}\n"...)
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
