package main

import (
	"fmt"

	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
)

// writePin replaces the pin at path atomically, through a symbolic link
// only to a file that is a pin already (fileio.WriteThroughLink).
func writePin(path string, data []byte) error {
	return fileio.WriteThroughLink(path, data, 0o644, func(target string) error {
		old, err := fileio.ReadCapped("pin", target, pin.MaxBytes)
		if err == nil {
			_, err = pin.Load(target, old)
		}
		if err != nil {
			return &usageError{msg: fmt.Sprintf("%q is a symbolic link to %q, which is not a pin file this version can read (%v)", sanitize.Text(path), sanitize.Text(target), err),
				hint: "to write through the link, check what it points at first; otherwise remove the link or give -o a real path"}
		}
		return nil
	})
}
