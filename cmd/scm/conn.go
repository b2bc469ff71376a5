package main

import (
	"errors"
	"fmt"
	"net/http"
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

// authorize sets the Authorization header: the key, after the prefix word
// when one is configured.
func (a *app) authorize(req *http.Request) {
	if a.apiKey == "" {
		return
	}
	v := a.apiKey
	if a.keyPrefix != "" {
		v = a.keyPrefix + " " + a.apiKey
	}
	req.Header.Set("Authorization", v)
}

// logf writes a --verbose line to standard error. Lines never hold the key:
// callers log methods, paths and statuses only.
func (a *app) logf(format string, args ...any) {
	if a.verbose {
		fmt.Fprintf(a.stderr, format+"\n", args...)
	}
}

// redactURL drops the URL from a transport error, keeping its cause: the
// URL may carry user-given query values.
func redactURL(err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return fmt.Errorf("%s: %w", strings.ToLower(uerr.Op), uerr.Err)
	}
	return err
}

// isCobraUsage recognises the errors cobra returns for a bad command line.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, s := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "accepts ", "requires at least", "invalid argument", "flag needs an argument"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
