package redacturl

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestString(t *testing.T) {
	for raw, want := range map[string]string{
		"https://scm.example.com/api/v1":             "https://scm.example.com/api/v1",
		"https://user:secret@scm.example.com/api/v1": "https://user:xxxxx@scm.example.com/api/v1",
		"https://user@scm.example.com/api/v1":        "https://user@scm.example.com/api/v1",
		"https://user:se cret%zz@host/api/v1":        "https://xxxxx@host/api/v1", // does not parse
		"https://host/path@with-at?q=a@b":            "https://host/path@with-at?q=a@b",
		"https://u:p%zz@host/path@x":                 "https://xxxxx@host/path@x",
	} {
		got := String(raw)
		assert.Equal(t, want, got, raw)
		assert.NotContains(t, got, "secret", raw)
	}
}
