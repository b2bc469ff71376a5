package main

import (
	"net/url"
	"strings"
)

// base returns the configured server URL or a usage error saying how to
// give one.
func (a *app) base() (string, error) {
	if a.baseURL == "" {
		return "", usagef("no server: give --base-url or set SCM_BASE_URL (or try scm demo, which needs neither)")
	}
	u, err := url.Parse(a.baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", usagef("--base-url %q is not an http(s) URL", a.baseURL)
	}
	return a.baseURL, nil
}

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
