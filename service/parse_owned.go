package service

import (
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/inventory"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
)

// ParseOwned is Parse for a buffer the caller gives up: a file the
// command line read and does not use again. An inventory is parsed from
// data itself (inventory.ParseString over fileio.AsString), not from a
// copy of it, so a 14 MB inventory is in memory once while it is read,
// and what it returns holds data: neither the caller nor anything else
// may write to data again. It returns what Parse returns: a document
// that is not an inventory, or one that does not parse as one, is left
// to Parse, for the same result and the same error.
//
// Never for bytes that are reused or kept (a Reuser's, a watched file's
// buffer): those go through Parse, which copies.
func ParseOwned(path string, data []byte, kind, home string) (*engine.Inventory, string, error) {
	if kind == KindInventory || kind == KindAuto && serversList(data) && readsAsInventory(path, home) {
		if inv, err := inventory.ParseString(path, fileio.AsString(data)); err == nil {
			return inv, KindInventory, nil
		}
	}
	return Parse(path, data, kind, home)
}
