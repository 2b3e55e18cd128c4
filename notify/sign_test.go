package notify

import (
	"errors"
	"testing"
)

// The Standard Webhooks test vector, as the specification's reference
// libraries publish it (svix and standard-webhooks test suites).
const (
	vectorSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorTimestamp = 1614265330
	vectorPayload   = `{"test": 2432232314}`
	vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func TestSignReproducesTheStandardWebhooksTestVector(t *testing.T) {
	for _, secret := range []string{vectorSecret, vectorSecret[len(SecretPrefix):], vectorSecret + "\n"} {
		key, err := DecodeSecret(secret)
		if err != nil {
			t.Fatalf("DecodeSecret(%q): %v", secret, err)
		}
		if got := Sign(key, vectorID, vectorTimestamp, []byte(vectorPayload)); got != vectorSignature {
			t.Errorf("Sign with secret %q = %s, want %s", secret, got, vectorSignature)
		}
	}
}

func TestSignChangesWithEverySignedPart(t *testing.T) {
	key, _ := DecodeSecret(vectorSecret)
	base := Sign(key, vectorID, vectorTimestamp, []byte(vectorPayload))
	for name, sig := range map[string]string{
		"id":        Sign(key, vectorID+"x", vectorTimestamp, []byte(vectorPayload)),
		"timestamp": Sign(key, vectorID, vectorTimestamp+1, []byte(vectorPayload)),
		"body":      Sign(key, vectorID, vectorTimestamp, []byte(vectorPayload+" ")),
	} {
		if sig == base {
			t.Errorf("changing the %s kept the signature", name)
		}
	}
}

func TestDecodeSecretRejectsWhatIsNotASecret(t *testing.T) {
	for _, bad := range []string{"", "whsec_", "whsec_not base64!", "whsec_c2hvcnQ=", "plain text secret"} {
		if _, err := DecodeSecret(bad); !errors.Is(err, ErrBadSecret) {
			t.Errorf("DecodeSecret(%q) = %v, want ErrBadSecret", bad, err)
		}
	}
	if _, err := DecodeSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"); err != nil {
		t.Error(err)
	}
}
