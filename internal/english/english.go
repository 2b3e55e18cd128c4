// Package english holds the small helpers that make messages read as
// English. It is pure and imports nothing of the module, so the engine may
// use it.
package english

import "strconv"

// Plural returns one when n is 1 and many otherwise: Plural(n, "tool",
// "tools").
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n and the word that goes with it: Count(1, "file", "files") is
// "1 file", Count(3, …) is "3 files".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Plural(n, one, many)
}
