package main

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/scmodel/scmgo/fake"
)

func TestProbeBadInputExitsTwo(t *testing.T) {
	srv := fake.NewServer()
	t.Cleanup(srv.Close)
	tlsSrv := httptest.NewTLSServer(fake.NewHandler())
	t.Cleanup(tlsSrv.Close)
	key := "Authorization: " + srv.APIKey
	tests := map[string]struct {
		args []string
		want string
	}{
		"no URL":        {nil, "want one BASE_URL"},
		"two URLs":      {[]string{srv.URL, srv.URL}, "want one BASE_URL"},
		"not http":      {[]string{"ftp://h/api/v1"}, "want an http(s) URL"},
		"max-calls":     {[]string{"-max-calls", "0", srv.URL}, "-max-calls 0"},
		"items":         {[]string{"-items", "0", srv.URL}, "-items 0"},
		"timeout":       {[]string{"-timeout", "0s", srv.URL}, "-timeout 0s"},
		"wrong key":     {[]string{"-header", "Authorization: wrong", srv.URL}, "answered 401 Unauthorized"},
		"untrusted TLS": {[]string{"-header", key, tlsSrv.URL + fake.BasePath}, "-ca-cert FILE"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			code, _, errs := runSpecdiff(t, nil, append([]string{"probe", "-spec", specPath}, tc.args...)...)
			if code != exitError || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d (want %d), stderr %q (want %q in it)", code, exitError, errs, tc.want)
			}
		})
	}
}
