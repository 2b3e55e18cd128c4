package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set at build time: go build -ldflags "-X main.version=1.2.3 -X main.commit=abc".
var (
	version = "0.1.0-dev"
	commit  = ""
)

func init() {
	register(&command{
		name:    "version",
		summary: "print the version, commit and Go version",
		run: func(e *env, args []string) error {
			c := lookup("version")
			pos, err := parseFlags(e, c, newFlags(e, c), args)
			if err != nil {
				return err
			}
			if len(pos) > 0 {
				return usagef("version", "version takes no arguments")
			}
			fmt.Fprintf(e.stdout, "descriptorpin %s\ncommit: %s\ngo: %s %s/%s\n", version, buildCommit(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	})
}

func buildCommit() string {
	if commit != "" {
		return commit
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				return s.Value
			}
		}
	}
	return "unknown"
}
