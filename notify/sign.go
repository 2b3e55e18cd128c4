package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
)

// Standard Webhooks (https://www.standardwebhooks.com) signing.
//
// A secret is "whsec_" followed by the base64 of the key (the prefix is
// optional, as in the reference libraries). The signature of one attempt
// is "v1," + base64(HMAC-SHA256(key, id + "." + timestamp + "." + body)),
// sent in the webhook-signature header next to webhook-id and
// webhook-timestamp.

// SecretPrefix starts a Standard Webhooks secret.
const SecretPrefix = "whsec_"

// ErrBadSecret is returned for a secret that is not "whsec_" + base64.
// The message never contains the secret.
var ErrBadSecret = errors.New(`the webhook secret is not a Standard Webhooks secret ("whsec_" followed by base64, at least 16 bytes decoded)`)

// DecodeSecret returns the HMAC key of a Standard Webhooks secret. Leading
// and trailing white space (a newline at the end of a secret file) is
// ignored.
func DecodeSecret(secret string) ([]byte, error) {
	s := strings.TrimPrefix(strings.TrimSpace(secret), SecretPrefix)
	key, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		// Some generators drop the padding.
		key, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
	}
	if err != nil || len(key) < 16 {
		return nil, ErrBadSecret
	}
	return key, nil
}

// Sign returns the webhook-signature header value for one attempt.
func Sign(key []byte, id string, timestamp int64, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id))
	m.Write([]byte{'.'})
	m.Write([]byte(strconv.FormatInt(timestamp, 10)))
	m.Write([]byte{'.'})
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
}
