// Package english holds the small helpers that make messages read as
// English. It is pure and imports nothing of the module, so the engine may
// use it.
package english

// Plural returns one when n is 1 and many otherwise: Plural(n, "tool",
// "tools").
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
