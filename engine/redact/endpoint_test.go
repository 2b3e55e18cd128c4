package redact

import "testing"

// The cases of config's TestRedactURL and notify's
// TestRedactURLKeepsSchemeAndHostOnly, which had a copy each.
func TestEndpointKeepsSchemeAndHostOnly(t *testing.T) {
	for in, want := range map[string]string{
		"https://hooks.example/services/T0/B0/XYZ":           "https://hooks.example",
		"https://u:p@hooks.example:8443/x?t=1":               "https://hooks.example:8443",
		"hooks.example/x":                                    "<redacted>",
		"http://[::1":                                        "<redacted>",
		"https://hooks.slack.com/services/T000/B000/XXXX":    "https://hooks.slack.com",
		"https://user:pass@example.test:8443/x?token=abc#f":  "https://example.test:8443",
		"http://127.0.0.1:9/p":                               "http://127.0.0.1:9",
		"not a url":                                          "<redacted>",
		"https://prod-00.westus.logic.azure.com/workflows/x": "https://prod-00.westus.logic.azure.com",
	} {
		if got := Endpoint(in); got != want {
			t.Errorf("Endpoint(%q) = %q, want %q", in, got, want)
		}
	}
}
