package main

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// editJSON rewrites a JSON file through fn, saving it the way editors do:
// a temporary file renamed over the original.
func editJSON(path string, fn func(map[string]any)) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	fn(m)
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".swp")
	if err := os.WriteFile(tmp, append(out, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// tool finds a tool object in a decoded inventory.
func tool(m map[string]any, server, name string) map[string]any {
	for _, s := range m["servers"].([]any) {
		sm := s.(map[string]any)
		if sm["name"] != server {
			continue
		}
		for _, t := range sm["tools"].([]any) {
			if tm := t.(map[string]any); tm["name"] == name {
				return tm
			}
		}
	}
	return map[string]any{}
}
