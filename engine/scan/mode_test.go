package scan

import "io/fs"

func fsMode(m uint32) fs.FileMode { return fs.FileMode(m) }
