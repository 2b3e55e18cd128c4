package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Class is a kind of finding.
type Class string

// The finding classes, in report order.
const (
	Mutation  Class = "MUTATION"
	Added     Class = "ADDED"
	Removed   Class = "REMOVED"
	Shadow    Class = "SHADOW"
	Poison    Class = "POISON"
	Transport Class = "TRANSPORT"
	// Launch is the class of a server whose launch config differs from
	// the pinned one: a stdio server is a command line, so a one-word edit
	// of a client config is a rug pull of its own.
	Launch Class = "LAUNCH"
	// BaitAndSwitch is the class of a server that lists other tools to
	// another clientInfo name than to descriptorpin: found by capture
	// probes (inventory --identify-as, the service's capture.identify_as),
	// never by a scan, so it is not in Classes (the scan summary's list).
	BaitAndSwitch Class = "BAIT-AND-SWITCH"
)

// Classes lists every class in report order.
var Classes = []Class{Mutation, Launch, Added, Removed, Shadow, Poison, Transport}

// Finding is one reported difference from the approved state or one static
// risk. Which fields are set depends on the class.
type Finding struct {
	ID       string
	Class    Class
	Severity Severity
	// Subject is what the finding is about: "server/tool" for tool
	// findings, the tool name for SHADOW, the server name for TRANSPORT.
	Subject string
	Server  string
	Tool    string

	// MUTATION, ADDED, REMOVED.
	PinnedHash, ScannedHash string
	Changes                 []Change
	// ChangesOmitted counts changes left out of Changes by the cap.
	ChangesOmitted int
	// RenamedFrom is, for a MUTATION that is a rename (default rules), the
	// pinned key ("server/old_name") the tool had: a REMOVED and an ADDED
	// tool of one server whose descriptors are otherwise near-identical.
	// Changes then include the name.
	RenamedFrom string

	// SHADOW: the claiming servers, sorted, and the kind of collision:
	// the strongest of exact, case, nfkc and confusable in the group (see
	// CollisionKind). LookAlikes lists the names that differ from Subject.
	Servers    []string
	Collision  string
	LookAlikes []LookAlike

	// POISON: the signals that fired and their summed weight.
	Score   int
	Signals []Signal

	// TRANSPORT: the rule that fired and its detail line.
	Rule      string
	Detail    string
	Transport string

	// AcceptHash is the hash an acceptance of this finding is tied to: the
	// descriptor for POISON, the launch config for TRANSPORT, the claimants
	// for SHADOW. Empty for classes that cannot be accepted.
	AcceptHash string

	// Location in the scanned file, for SARIF and events.
	Path string // JSON path
	Line int
}

// LookAlike is one name in a SHADOW group that is not the group's name
// as written but reads like it.
type LookAlike struct {
	Server string
	Name   string // as written
	Kind   string // case, nfkc or confusable
	// Chars names the characters that make the difference, for a
	// person: "U+0430 Cyrillic 'а' (looks like a)". Empty for case.
	Chars string
}

// Change is one changed field of a mutated descriptor. Path is the field
// ("description") or, inside a schema, the JSON path of the change
// ("input_schema.properties.path.description"). Values are shown as text:
// strings as they are, other values as canonical JSON, "(absent)" when the
// field is missing on one side.
type Change struct {
	Field   string // top-level descriptor field
	Path    string
	Pinned  string
	Scanned string
}

// Signal is one poison signal that fired on a tool.
type Signal struct {
	ID       string
	Name     string
	Weight   int
	Detail   string
	Field    string // where it fired: "description", "title", a schema path
	Evidence string // the matched text, as written
}

// Digest returns the digest (first 12 hex characters) of a hash.
func Digest(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

// StableID derives a finding id from host-independent parts: the class,
// the subject and what the finding is about. The same finding gets the
// same id on every machine and every run.
func StableID(parts ...string) string {
	h := sha256.New()
	h.Write([]byte("descriptorpin/finding/v1"))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// CountByClass counts findings per class.
func CountByClass(fs []Finding) map[Class]int {
	m := map[Class]int{}
	for _, f := range fs {
		m[f.Class]++
	}
	return m
}

// JoinSorted joins already-sorted names for id and hash material.
func JoinSorted(names []string) string { return strings.Join(names, "\x1f") }

// Absent is how a change shows a field missing on one side.
const Absent = "(absent)"
