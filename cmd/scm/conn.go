package main

import (
	"net/url"
	"os"
	"strings"

	"github.com/scmodel/scmgo/internal/redacturl"
)

// base returns the configured server URL or a usage error saying how to
// give one. A URL holding a user name and password is refused here, naming
// the setting it came from, before anything can print or send it.
func (a *app) base() (string, error) {
	if a.baseURL == "" {
		return "", usagef("no server: give --base-url or set SCM_BASE_URL (or try scm demo, which needs neither)")
	}
	u, err := url.Parse(a.baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", usagef("%s %s is not an http(s) URL", a.baseURLSetting(), shownURL(a.baseURL))
	}
	if u.User != nil {
		return "", usagef("%s %s holds a user name and password: the server takes an API key instead (--api-key or SCM_API_KEY); "+
			"remove \"user:password@\" from the URL", a.baseURLSetting(), u.Redacted())
	}
	return a.baseURL, nil
}

// baseURLSetting names where the base URL came from: the environment when
// it is SCM_BASE_URL's value, else the flag.
func (a *app) baseURLSetting() string {
	if env := os.Getenv("SCM_BASE_URL"); env != "" && env == a.baseURL {
		return "SCM_BASE_URL"
	}
	return "--base-url"
}

// shownURL is raw as it may be printed: its password replaced by xxxxx,
// or, when it does not parse, everything before the host's "@".
func shownURL(raw string) string { return redacturl.String(raw) }

// isCobraUsage recognises the errors cobra returns for a bad command line.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, s := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "accepts ", "requires at least", "invalid argument", "flag needs an argument", "required flag(s)"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
