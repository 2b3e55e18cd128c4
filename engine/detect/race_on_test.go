//go:build race

package detect

// raceBuild is true under the race detector, which makes the corpus
// checks about ten times slower; they then read a sample of the corpus
// (the plain run reads all of it).
const raceBuild = true
