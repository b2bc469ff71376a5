// Package redacturl shows a URL without its password, whether or not it
// parses: what errors, logs and the CLI may print of a base URL.
package redacturl

import (
	"net/url"
	"strings"
)

// String is raw with the password of its user information replaced by
// xxxxx (url.URL.Redacted), or, when raw does not parse, everything before
// the last "@" of its authority replaced by xxxxx.
func String(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	scheme, rest, found := strings.Cut(raw, "://")
	if !found {
		scheme, rest = "", raw
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		rest = "xxxxx" + rest[at:]
	}
	if found {
		return scheme + "://" + rest
	}
	return rest
}
