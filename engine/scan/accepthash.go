package scan

import (
	"slices"
	"sync"

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

// waitForHashes makes detection that starts before compare (Scan's
// startPoisons) take its findings' accept hashes from compare instead of
// hashing each finding's tool again (7,204 of 20,000 tools under the
// reference rules, the same canonical form hashTools has just encoded).
// A variable for the tests, which compare both ways.
var waitForHashes = true

// hashesLater is a ToolHash that is not known yet when detection starts:
// get waits until set, then answers as the hashes set do (false, and the
// detectors hash the tool themselves, when they are nil). set may be
// called more than once; the first call counts.
type hashesLater struct {
	once  sync.Once
	ready chan struct{}
	hash  detect.ToolHash
}

func newHashesLater() *hashesLater { return &hashesLater{ready: make(chan struct{})} }

func (l *hashesLater) set(h detect.ToolHash) {
	l.once.Do(func() { l.hash = h; close(l.ready) })
}

func (l *hashesLater) get(t *engine.Tool) (string, bool) {
	<-l.ready
	if l.hash == nil {
		return "", false
	}
	return l.hash(t)
}
