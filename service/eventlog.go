package service

import (
	"fmt"
	"io"
	"os"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine/sanitize"
	"github.com/descriptorpin/descriptorpin/notify"
)

// OpenEventLog opens the JSON event log the config describes. stderr, if
// not nil, also gets each event when the config asks for it (log.stderr).
func OpenEventLog(cfg config.Config, version string, stderr io.Writer) (*notify.EventLog, error) {
	host, _ := os.Hostname()
	opt := notify.EventLogOptions{
		File: cfg.Log.File, MaxSizeMB: cfg.Log.MaxSizeMB, MaxBackups: cfg.Log.MaxBackups,
		Console: cfg.Log.Format == config.FormatConsole, Level: string(cfg.Log.Level),
		Host: host, Version: version,
	}
	if cfg.Log.Stderr && stderr != nil {
		opt.Stderr = stderr
	}
	l, err := notify.NewEventLog(opt)
	if err != nil {
		return nil, fmt.Errorf("opening the event log %q: %w", sanitize.Text(cfg.Log.File), err)
	}
	return l, nil
}
