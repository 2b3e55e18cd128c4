package jsonv

// CountContainers counts the objects and arrays of a JSON (or JSONC)
// document without parsing it: one flat pass that skips strings and
// comments and allocates nothing. It stops once the count passes limit
// (limit <= 0: no limit) and returns the count so far and the offset of
// the container that passed it (-1 when it did not). A caller uses it to
// refuse a document whose shape alone would cost far more memory and
// time than its size suggests (a million tiny tools), before parsing.
// Malformed input is counted as far as it goes; the parser reports it.
func CountContainers(data []byte, limit int) (n, off int) {
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '/':
			if i+1 < len(data) && data[i+1] == '/' {
				for i += 2; i < len(data) && data[i] != '\n'; i++ {
				}
			} else if i+1 < len(data) && data[i+1] == '*' {
				for i += 2; i+1 < len(data) && !(data[i] == '*' && data[i+1] == '/'); i++ {
				}
				i++
			}
		case '{', '[':
			n++
			if limit > 0 && n > limit {
				return n, i
			}
		}
	}
	return n, -1
}
