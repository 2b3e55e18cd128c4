package main

// plural picks the word for n (internal/english.Plural once it exists).
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
