// Package cliflag holds the flag handling every descriptorpin command
// shares: flags and positionals in any order, and repeatable flags.
package cliflag

import (
	"flag"
	"strings"
)

// Parse parses flags and positionals in any order ("scan inv.json -p
// pin.json" as well as "scan -p pin.json inv.json") and returns the
// positionals; "--" ends the flags. Errors are the flag package's
// (flag.ErrHelp for -h).
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// List is a repeatable string flag.
type List []string

func (l *List) String() string     { return strings.Join(*l, ",") }
func (l *List) Set(v string) error { *l = append(*l, v); return nil }
