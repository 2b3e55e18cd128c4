package service

import (
	"fmt"

	"github.com/descriptorpin/descriptorpin/engine/launch"
	"github.com/descriptorpin/descriptorpin/internal/hostkey"
)

// hostKey is the per-host key of the launch value digests, in the config's
// state directory (hostkey.Path(cfg.StateDir)), read or created on first
// use as pin and approve do (hostkey.ForPin): trust-on-first-use pins
// record value digests with it, scans compare with it, and the scheduled
// capture starts a stdio server only when its values match the approved
// ones under it. A key that cannot be had is reported once, as a
// scan-failed event naming the key file; the service then pins without
// digests and compares no values (each scan's notes say so).
func (d *Daemon) hostKey() launch.Key {
	if d.keyDone {
		return d.key
	}
	d.keyDone = true
	k, warn, err := hostkey.ForPin(d.cfg.StateDir)
	switch {
	case err != nil:
		d.emit(d.failed(hostkey.Path(d.cfg.StateDir), err))
	case warn != "":
		d.emit(d.failed(hostkey.Path(d.cfg.StateDir), fmt.Errorf("%s", warn)))
	}
	d.key = k
	return d.key
}
