package scan

import (
	"slices"

	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/detect"
	"github.com/descriptorpin/descriptorpin/engine/pin"
)

// acceptHashes hands the pinned-form hashes compare worked out to the
// detectors as the accept hashes of their findings, when they are that
// hash: a format-2 pin with the default exclusions. Otherwise nil, and
// the detectors hash each finding's tool themselves.
func acceptHashes(tools []*engine.Tool, hashes []string, pn *pin.Pin) detect.ToolHash {
	if pn == nil || pn.Format != pin.Format2 || !slices.Equal(pn.Exclude, pin.DefaultExclude()) || len(hashes) != len(tools) {
		return nil
	}
	return detect.HashesOf(tools, hashes)
}
