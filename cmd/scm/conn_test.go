package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

const urlPassword = "url-SECRET-pw"

// A base URL holding a user name and password is refused before anything
// is sent, by every command, with an error that names the setting it came
// from and says to give the API key instead, and that never shows the
// password.
func TestBaseURLWithPasswordIsRefusedUnshown(t *testing.T) {
	srv, _ := demoServer(t)
	host := strings.TrimPrefix(srv.URL, "http://")
	withPassword := "http://scm:" + urlPassword + "@" + host
	cases := map[string]struct {
		args    []string
		env     string
		setting string
	}{
		"projects, flag":         {args: []string{"projects", "--base-url", withPassword}, setting: "--base-url"},
		"projects, environment":  {args: []string{"projects"}, env: withPassword, setting: "SCM_BASE_URL"},
		"call, flag":             {args: []string{"call", "getCurrentUser", "--base-url", withPassword}, setting: "--base-url"},
		"call, environment":      {args: []string{"call", "getCurrentUser"}, env: withPassword, setting: "SCM_BASE_URL"},
		"demo, unasked":          {args: []string{"demo", "--base-url", withPassword}, setting: "--base-url"},
		"demo, --yes":            {args: []string{"demo", "--yes", "--base-url", withPassword}, setting: "--base-url"},
		"demo, --read-only":      {args: []string{"demo", "--read-only", "--base-url", withPassword}, setting: "--base-url"},
		"a URL that won't parse": {args: []string{"projects", "--base-url", "https://scm:" + urlPassword + "@" + host + ":badport/api/v1"}, setting: "--base-url"},
		"not http(s)":            {args: []string{"projects", "--base-url", "ftp://scm:" + urlPassword + "@" + host}, setting: "--base-url"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			t.Setenv("SCM_BASE_URL", tc.env)
			r := scm(t, "y\n", append(tc.args, "--api-key", testKey)...)
			assert.Equal(t, exitUsage, r.code, r.stderr)
			assert.NotContains(t, r.stdout+r.stderr, urlPassword)
			assert.Contains(t, r.stderr, tc.setting)
			sentNothing(t, srv)
		})
	}
	t.Run("what to do instead", func(t *testing.T) {
		r := scm(t, "", "projects", "--base-url", withPassword, "--api-key", testKey)
		assert.Equal(t, "scm projects: --base-url http://scm:xxxxx@"+host+
			" holds a user name and password: the server takes an API key instead (--api-key or SCM_API_KEY); remove \"user:password@\" from the URL\n", r.stderr)
	})
}

// The demo's list of changes shows the server without a password, should
// a URL holding one ever reach it.
func TestDemoChangePlanHidesPassword(t *testing.T) {
	d := &demo{app: &app{baseURL: "https://scm:" + urlPassword + "@scm.example.com/api/v1"}}
	plan := d.changePlan(d.steps())
	assert.NotContains(t, plan, urlPassword)
	assert.Contains(t, plan, "scm demo changes the server at https://scm:xxxxx@scm.example.com/api/v1, in this order:\n")
}
