package clientconfig

import "github.com/descriptorpin/descriptorpin/engine"

// Parse parses one MCP client config file. file is the name used for
// detection and in messages; hint is the format, or FormatAuto. It returns
// the servers, the format it read, and an *engine.InputError for any
// problem.
func Parse(file string, data []byte, hint Format) (*engine.Inventory, Format, error) {
	return ParseWith(file, data, Options{Format: hint})
}
