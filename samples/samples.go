// Package samples embeds the sample inventories and pin so that the
// binary's demo can run anywhere, with no checkout beside it.
package samples

import "embed"

// FS holds inventory_clean.json, inventory_mutated.json and pin.json.
//
//go:embed inventory_clean.json inventory_mutated.json pin.json
var FS embed.FS
