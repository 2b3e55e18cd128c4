package canon

// EscapeNonASCII escapes every character outside printable ASCII, as
// Python's json.dumps(ensure_ascii=True) does.
func EscapeNonASCII(r rune) bool { return r < 0x20 || r > 0x7e }
