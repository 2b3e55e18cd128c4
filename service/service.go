// Package service is DescriptorPin's background service: the loop over the
// watcher's signals, the targets and their auto-detection, loading and
// reloading the pin, trust on first use, the scheduled capture and the
// persisted state. Its file system, clock, watcher, capture and sinks are
// injected (Options), so it is tested in-process; the CLI only parses
// flags, builds the sinks and runs it.
package service

import (
	"context"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"time"

	"github.com/descriptorpin/descriptorpin/config"
	"github.com/descriptorpin/descriptorpin/engine"
	"github.com/descriptorpin/descriptorpin/engine/pin"
	"github.com/descriptorpin/descriptorpin/internal/fileio"
	"github.com/descriptorpin/descriptorpin/watcher"
)

// StateFile is the name of the persisted state inside state_dir.
const StateFile = "state.json"

// FS is the file system the service reads its targets, pin and state from
// and writes its pin (trust on first use), state and captured inventories
// to. WriteFile replaces a file atomically.
type FS interface {
	Open(name string) (fs.File, error)
	Stat(name string) (fs.FileInfo, error)
	Glob(pattern string) ([]string, error)
	MkdirAll(path string, perm fs.FileMode) error
	Rename(oldpath, newpath string) error
	WriteFile(path string, data []byte, perm fs.FileMode) error
}

// OS is the real file system; WriteFile is fileio.WriteAtomic.
type OS struct{}

func (OS) Open(name string) (fs.File, error)            { return fileio.Open(name) }
func (OS) Stat(name string) (fs.FileInfo, error)        { return os.Stat(name) }
func (OS) Glob(pattern string) ([]string, error)        { return filepath.Glob(pattern) }
func (OS) MkdirAll(path string, perm fs.FileMode) error { return os.MkdirAll(path, perm) }
func (OS) Rename(oldpath, newpath string) error         { return os.Rename(oldpath, newpath) }
func (OS) WriteFile(path string, data []byte, perm fs.FileMode) error {
	return fileio.WriteAtomic(path, data, perm)
}

// Watcher is what the service needs of a watcher.Watcher.
type Watcher interface {
	Signals() <-chan watcher.Signal
	Health() <-chan watcher.Health
	SetTargets(targets []string) error
	Close() error
}

// CaptureFunc captures one client config into its inventory and returns
// the events to emit (the real one is Options.captureConfig).
type CaptureFunc func(ctx context.Context, cc config.CaptureConfig, pin *pin.Pin) []engine.Event

// Options is what the service is handed of its surroundings. Every zero
// field is the real thing.
type Options struct {
	FS        FS                  // nil: OS
	Now       func() time.Time    // nil: time.Now
	Home      string              // "": os.UserHomeDir
	User      string              // who trusts on first use; "": "unknown"
	Host      string              // "": os.Hostname
	GOOS      string              // "": runtime.GOOS
	Version   string              // the program's version, for events and capture
	Getenv    func(string) string // nil: os.Getenv (client config locations)
	LookupEnv func(string) (string, bool)
	// Watch starts the watcher; nil is watcher.New.
	Watch func(paths []string, opt watcher.Options) (Watcher, error)
	// Capture replaces the scheduled capture of one client config.
	Capture CaptureFunc
	// Stderr gets a line when events cannot be written (nil: os.Stderr).
	Stderr io.Writer
	// CheckInterval is how long the loop waits before it retries events
	// it could not write (a timer armed only while there are some); 0 is
	// 10s.
	CheckInterval time.Duration
}

func (o Options) withDefaults() Options {
	if o.FS == nil {
		o.FS = OS{}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
	if o.User == "" {
		o.User = "unknown"
	}
	if o.Host == "" {
		o.Host, _ = os.Hostname()
	}
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	if o.CheckInterval <= 0 {
		o.CheckInterval = 10 * time.Second
	}
	if o.Watch == nil {
		o.Watch = func(paths []string, opt watcher.Options) (Watcher, error) { return watcher.New(paths, opt) }
	}
	return o
}

// read reads a whole regular file of fsys, capped: anything else (a
// FIFO, a device) is refused before it is opened, and the read is bounded
// in time (fileio.ReadTimeout) as well as in bytes.
func read(fsys FS, what, path string) ([]byte, fs.FileMode, error) {
	if what == "pin" {
		return fileio.ReadFrom(fsys.Open, what, path, pin.MaxBytes) // pins have a cap of their own
	}
	return fileio.ReadFrom(fsys.Open, what, path, engine.MaxFileBytes)
}

// CurrentUser is the name of the user the service runs as, for the notes
// of first-use approvals and the install record: the account's name, else
// $USER, else "unknown".
func CurrentUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if n := os.Getenv("USER"); n != "" {
		return n
	}
	return "unknown"
}
