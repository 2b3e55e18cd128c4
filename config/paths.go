package config

import (
	"errors"
	"fmt"
	"os"
	"path"
	"runtime"
	"strings"
)

// paths are the per-OS default locations.
type paths struct {
	ConfigFile string
	Pin        string
	StateDir   string
	LogFile    string
}

// errNoHome is returned when a default path needs the home directory and it
// is not known.
var errNoHome = errors.New("home directory is not known")

// DefaultPath returns the default location of the config file on this host:
//
//   - Linux and other Unix: $XDG_CONFIG_HOME/descriptorpin/config.yaml,
//     falling back to ~/.config/descriptorpin/config.yaml;
//   - macOS: ~/Library/Application Support/DescriptorPin/config.yaml;
//   - Windows: %APPDATA%\DescriptorPin\config.yaml.
//
// The pin file defaults to pin.json next to it.
func DefaultPath() (string, error) {
	p, err := hostDefaults()
	if p.ConfigFile == "" {
		return "", fmt.Errorf("finding the default config file: %w", err)
	}
	return p.ConfigFile, nil
}

// hostDefaults is defaultsFor this process's OS, environment and home.
func hostDefaults() (paths, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		home = ""
	}
	return defaultsFor(runtime.GOOS, os.Getenv, home)
}

// defaultsFor computes the default paths for goos, with env reading the
// environment ("" means unset) and home the user's home directory ("" if
// unknown). Paths it cannot compute are left empty and reported in the
// error. It joins with goos's separator whatever the host, so any OS's
// defaults can be tested anywhere.
func defaultsFor(goos string, env func(string) string, home string) (paths, error) {
	var p paths
	var err error
	switch goos {
	case "windows":
		join := func(elem ...string) string { return joinWindows(elem...) }
		roaming := env("APPDATA")
		if roaming == "" && home != "" {
			roaming = join(home, "AppData", "Roaming")
		}
		local := env("LOCALAPPDATA")
		if local == "" && home != "" {
			local = join(home, "AppData", "Local")
		}
		if roaming != "" {
			p.ConfigFile = join(roaming, "DescriptorPin", "config.yaml")
			p.Pin = join(roaming, "DescriptorPin", "pin.json")
		}
		if local != "" {
			p.StateDir = join(local, "DescriptorPin")
			p.LogFile = join(p.StateDir, DefaultLogFileName)
		}
		if roaming == "" || local == "" {
			err = fmt.Errorf("%%APPDATA%% or %%LOCALAPPDATA%% is not set and the %w", errNoHome)
		}
	case "darwin", "ios":
		if home == "" {
			return p, errNoHome
		}
		base := path.Join(home, "Library", "Application Support", "DescriptorPin")
		p.ConfigFile = path.Join(base, "config.yaml")
		p.Pin = path.Join(base, "pin.json")
		p.StateDir = path.Join(base, "state")
		p.LogFile = path.Join(home, "Library", "Logs", "DescriptorPin", DefaultLogFileName)
	default: // Linux and other Unix: XDG base directories.
		// The XDG spec says relative values are invalid and must be ignored.
		xdg := func(name, fallback string) string {
			if v := env(name); path.IsAbs(v) {
				return v
			}
			if home == "" {
				return ""
			}
			return path.Join(home, fallback)
		}
		cfg := xdg("XDG_CONFIG_HOME", ".config")
		state := xdg("XDG_STATE_HOME", path.Join(".local", "state"))
		if cfg != "" {
			p.ConfigFile = path.Join(cfg, "descriptorpin", "config.yaml")
			p.Pin = path.Join(cfg, "descriptorpin", "pin.json")
		}
		if state != "" {
			p.StateDir = path.Join(state, "descriptorpin")
			p.LogFile = path.Join(p.StateDir, DefaultLogFileName)
		}
		if cfg == "" || state == "" {
			err = fmt.Errorf("$XDG_CONFIG_HOME or $XDG_STATE_HOME is not set and the %w", errNoHome)
		}
	}
	return p, err
}

// joinWindows joins path elements with a backslash, like filepath.Join on
// Windows for the simple, already clean elements used here.
func joinWindows(elem ...string) string {
	var b strings.Builder
	for i, e := range elem {
		if i > 0 {
			b.WriteByte('\\')
			e = strings.TrimLeft(e, `\/`)
		}
		if i < len(elem)-1 {
			e = strings.TrimRight(e, `\/`)
		}
		b.WriteString(e)
	}
	return b.String()
}
