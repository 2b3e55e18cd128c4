package clientfs

import (
	"errors"
	"path/filepath"

	"github.com/descriptorpin/descriptorpin/engine/sources"
)

// ReadVSCodeDB reads the tool cache of one VS Code state.vscdb (profile
// or workspace). For a workspaceStorage/<id>/state.vscdb the workspace
// folder comes from the workspace.json beside it, and workspace servers
// are named name@<folder>. A database without a tool cache gives no
// servers and no error.
func ReadVSCodeDB(client, dbPath, goos string) ([]sources.Server, error) {
	scope := sources.VSCodeScope{Client: client}
	dir := filepath.Dir(dbPath)
	if filepath.Base(filepath.Dir(dir)) == "workspaceStorage" {
		wsFile := filepath.Join(dir, "workspace.json")
		data, err := readCapped(wsFile, 1<<20)
		if err != nil {
			return nil, err
		}
		p, err := sources.ParseVSCodeWorkspace(wsFile, data, goos)
		if err != nil {
			return nil, err
		}
		scope.ProjectDir = p
	}
	v, err := ReadItem(dbPath, sources.VSCodeCacheKey)
	if errors.Is(err, ErrNoItem) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return sources.ParseVSCodeCache(dbPath+"#"+sources.VSCodeCacheKey, v, scope)
}
