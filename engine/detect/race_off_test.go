//go:build !race

package detect

// raceBuild is true under the race detector (see race_on_test.go).
const raceBuild = false
