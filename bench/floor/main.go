// Command floor is the benchmark floor: the least work any tool that
// trusts nothing about a JSON file must do. It reads the file, decodes it
// with encoding/json into an any, and SHA-256 hashes its bytes; nothing
// else. bench/run.sh compares descriptorpin's timings with it.
//
//	go run ./bench/floor inv.json
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: floor FILE")
		return 2
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "floor: error: %v\n", err)
		return 2
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		fmt.Fprintf(stderr, "floor: error: %v\n", err)
		return 2
	}
	sum := sha256.Sum256(data)
	fmt.Fprintln(stdout, hex.EncodeToString(sum[:]))
	return 0
}
