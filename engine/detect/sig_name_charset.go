package detect

var sigNameCharset = signal{
	name: "name_charset", weight: 1, match: nameCharsetMatch, charLevel: true, flags: fNonASCII,
	examples: []string{"größe_setzen", "read\u200bfile", "naïve-search"},
	counter:  []string{"read_file", "添付ファイル（Base64）", "Größe", "wr\u0456te_file"},
}
