// Command gen writes a large, deterministic inventory for benchmarks:
//
//	go run ./bench/gen -servers 400 -tools 50 -o inv.json
//	go run ./bench/gen -servers 400 -tools 50 -mutate 40 -o inv-mutated.json
//
// The same flags always give the same bytes. With -mutate N, N tool
// descriptions differ from the clean inventory of the same seed, a third
// of them with instruction-shaped text, so a scan against a pin of the
// clean inventory has findings.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/descriptorpin/descriptorpin/bench/invgen"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	servers := fs.Int("servers", 400, "number of servers")
	tools := fs.Int("tools", 50, "tools per server")
	mutate := fs.Int("mutate", 0, "number of tool descriptions to change")
	seed := fs.Uint64("seed", invgen.DefaultSeed, "generator seed")
	indent := fs.Bool("indent", false, "indent the JSON with two spaces (default compact)")
	out := fs.String("o", "", "output file (default stdout)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gen: error: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	data, err := invgen.Generate(invgen.Options{
		Servers: *servers, Tools: *tools, Seed: *seed, Mutate: *mutate, Indent: *indent,
	})
	if err != nil {
		fmt.Fprintf(stderr, "gen: error: %v\n", err)
		return 2
	}
	if *out == "" {
		_, err = stdout.Write(data)
	} else {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gen: error: %v\n", err)
		return 1
	}
	return 0
}
