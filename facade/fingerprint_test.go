package facade

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// topLevelFieldByDecoding is what topLevelField must agree with.
func topLevelFieldByDecoding(body []byte, name string) ([]byte, bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return nil, false
	}
	raw, ok := top[name]
	return raw, ok
}

var fieldCases = []string{
	`{"rows":[{"index":1,"cells":[{"value":"a,b]}"}]}],"name":"x"}`,
	`{"name":"answer 7","rows":[],"totalRows":30}`,
	` { "a" : {"rows":[1]} , "rows" : [ 2 , 3 ] } `,
	`{"s":"esc \" \\ \"rows\":[9]","rows":[{"k":"v"}]}`,
	`{"n":-1.5e3,"t":true,"z":null,"rows":[null]}`,
	`{"rows":5}`,
	`{"rows":[1],"rows":[2]}`,
	`{"row\u0073":[1]}`,
	`{"rows":[1],"row\u0073":[2]}`,
	`{"rows":[1],"Rows":[2]}`,
	`{}`,
	`{"other":1}`,
	`[1,2]`,
	`{"rows":[1,2}`,
	`{"rows"`,
	``,
}

// topLevelField either agrees with encoding/json or gives up (nil), in which
// case the fingerprint hashes the whole body.
func TestTopLevelFieldAgreesWithDecoding(t *testing.T) {
	for _, body := range fieldCases {
		want, ok := topLevelFieldByDecoding([]byte(body), "rows")
		got := topLevelField([]byte(body), "rows")
		if !ok || got == nil {
			continue // the body does not decode (so the page fails), or it gave up
		}
		assert.Equal(t, string(want), string(bytes.TrimSpace(got)), body)
	}
	for _, ambiguous := range []string{`{"row\u0073":[1]}`, `{"rows":[1],"Rows":[2]}`} {
		assert.Nil(t, topLevelField([]byte(ambiguous), "rows"), ambiguous)
	}
	assert.Nil(t, topLevelField([]byte(`{"other":1}`), "rows"))
	assert.Nil(t, topLevelField([]byte(`[1,2]`), "rows"))
}

func TestFingerprintIgnoresOtherFields(t *testing.T) {
	a := itemsFingerprint([]byte(`{"name":"answer 1","rows":[{"index":20}]}`), "rows")
	b := itemsFingerprint([]byte(`{"name":"answer 2","rows":[{"index":20}]}`), "rows")
	c := itemsFingerprint([]byte(`{"name":"answer 2","rows":[{"index":21}]}`), "rows")
	assert.Equal(t, a, b)
	assert.NotEqual(t, b, c)
}

func FuzzTopLevelField(f *testing.F) {
	for _, body := range fieldCases {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got := topLevelField(body, "rows")
		want, ok := topLevelFieldByDecoding(body, "rows")
		if ok && got != nil && !bytes.Equal(bytes.TrimSpace(got), want) {
			t.Fatalf("topLevelField(%q) = %q, decoding says %q", body, got, want)
		}
	})
}
