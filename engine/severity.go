package engine

import "fmt"

// Severity orders findings for filtering and display.
type Severity int

// Severities, lowest first.
const (
	Low Severity = iota + 1
	Medium
	High
	Critical
)

func (s Severity) String() string {
	switch s {
	case Low:
		return "low"
	case Medium:
		return "medium"
	case High:
		return "high"
	case Critical:
		return "critical"
	}
	return "unknown"
}

// MarshalText writes the severity's name ("low" ... "critical"), so JSON
// and YAML carry the name and never the number.
func (s Severity) MarshalText() ([]byte, error) {
	if s < Low || s > Critical {
		return nil, fmt.Errorf("severity %d is not one of low, medium, high, critical", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads a severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	v, ok := ParseSeverity(string(b))
	if !ok {
		return fmt.Errorf("unknown severity %q: want low, medium, high or critical", string(b))
	}
	*s = v
	return nil
}

// Severities lists every severity, lowest first.
var Severities = []Severity{Low, Medium, High, Critical}

// ParseSeverity reads a severity name.
func ParseSeverity(s string) (Severity, bool) {
	for _, v := range []Severity{Low, Medium, High, Critical} {
		if v.String() == s {
			return v, true
		}
	}
	return 0, false
}

// PoisonSeverity maps a poison score to a severity.
func PoisonSeverity(score int) Severity {
	switch {
	case score >= 10:
		return Critical
	case score >= 6:
		return High
	case score >= 3:
		return Medium
	}
	return Low
}
