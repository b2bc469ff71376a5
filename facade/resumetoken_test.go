package facade

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// signed is a version 3 token of evidence, with its checksum.
func signed(evidence string) string {
	body := runTokenPrefix + base64.RawURLEncoding.EncodeToString([]byte(evidence))
	return body + "." + tokenChecksum(body)
}

// v2 is a version 2 token of evidence.
func v2(evidence string) string {
	return runTokenPrefixV2 + base64.RawURLEncoding.EncodeToString([]byte(evidence))
}

// pastedKey is what a user may paste instead of a token: an API key.
const pastedKey = "d3b07384-d9a0-4c5b-9f0a-6e8b4a9c1f2e"

// A token of this release rebuilds the run; tokens of earlier releases
// (version 2, and the first release's runOrigin JSON) are read as before,
// bound to no server, with their weaker evidence said.
func TestResumeTokensOfEveryVersion(t *testing.T) {
	_, c, _ := newVirtualFake(t, time.Minute)
	run := must(c.Experiments.Prepare(testCtx(t), 10303, nil))(t)
	token := must(run.ResumeToken())(t)
	require.True(t, strings.HasPrefix(token, "scmrun.3."), token)
	resumed := must(c.ResumeRunFromToken(token))(t)
	assert.Equal(t, run.origin(), resumed.origin())
	assert.Equal(t, RunSubject{RcID: 10303, ScenarioID: 103, Type: gen.ExperimentTypeSIMULATION, Started: run.origin().Started}, must(TokenSubject(token))(t))

	legacy := `{"rcId":10303,"scenarioId":103,"type":"SIMULATION","listed":[5001],"endedBefore":true,"started":"2024-03-01T09:00:00Z"}`
	old := must(c.ResumeRunFromToken(legacy))(t)
	assert.Equal(t, ids.RcID(10303), old.RcID())
	assert.Contains(t, EvidenceOf(old).Weak, "earlier release")
	fresh := must(c.ResumeRunFromToken(strings.Replace(legacy, `"endedBefore":true`, `"endedBefore":false`, 1)))(t)
	assert.Empty(t, EvidenceOf(fresh).Weak, "no end before the start says all there is to say")

	second := must(c.ResumeRunFromToken(v2(`{"rcId":10303,"scenarioId":103,"type":"SIMULATION","listed":[5001],"started":"2024-03-01T09:00:00Z","ended":true,"outcome":"succeeded"}`)))(t)
	assert.Equal(t, ids.ScenarioID(103), second.origin().ScenarioID)
	assert.Empty(t, second.origin().Server, "a version 2 token names no server")
	assert.True(t, strings.HasPrefix(must(second.ResumeToken())(t), "scmrun.3."), "it is given back as a token of this release")
}

// A token is refused, naming its length and what is wrong and never
// quoting it, when it cannot be read, was edited, holds values no start
// records, or was made for another server.
func TestResumeTokensRefused(t *testing.T) {
	_, c, _ := newVirtualFake(t, time.Minute)
	server := c.server()
	good := `{"server":"` + server + `","rcId":10303,"scenarioId":103,"type":"SIMULATION","listed":[5001],"started":"2024-03-01T09:00:00Z","ended":true,"outcome":"succeeded"}`
	token := signed(good)
	require.NotNil(t, must(c.ResumeRunFromToken(token))(t))
	with := func(old, new string) string { return strings.Replace(good, old, new, 1) }
	edited := runTokenPrefix + base64.RawURLEncoding.EncodeToString([]byte(with("10303", "10304"))) + token[strings.LastIndexByte(token, '.'):]
	cases := map[string]struct {
		token string
		why   string
	}{
		"empty":                     {"", "does not begin"},
		"a pasted key":              {pastedKey, "does not begin"},
		"cut":                       {token[:len(token)-7], "checksum"},
		"edited":                    {edited, "checksum"},
		"no checksum":               {runTokenPrefix + base64.RawURLEncoding.EncodeToString([]byte(good)), "checksum"},
		"not base64":                {signed("x")[:len(runTokenPrefix)] + "%%%." + tokenChecksum(runTokenPrefix+"%%%"), "base64url"},
		"another version":           {"scmrun.4." + base64.RawURLEncoding.EncodeToString([]byte(good)), "another version"},
		"foreign":                   {"eyJhbGciOiJIUzI1NiJ9.e30.sig", "does not begin"},
		"unknown field":             {signed(with(`"ended":true`, `"ended":true,"extra":1`)), "unknown field"},
		"rcId given twice":          {signed(with(`"rcId":10303`, `"rcId":10303,"rcId":10304`)), "twice"},
		"key given twice, nested":   {signed(with(`"outcome":"succeeded"`, `"outcome":"succeeded","decided":{"by":"listed","entry":{"id":5003,"id":5005,"rcId":5004,"name":"S"}}`)), "twice"},
		"rcId not an id":            {signed(with(`"rcId":10303`, `"rcId":0`)), "rcId 0"},
		"scenarioId negative":       {signed(with(`"scenarioId":103`, `"scenarioId":-103`)), "scenarioId -103"},
		"listed id negative":        {signed(with(`[5001]`, `[5001,-7]`)), "listed run 2"},
		"type not in the reference": {signed(with(`"SIMULATION"`, `"NOT_A_TYPE"`)), "experiment type"},
		"no type":                   {signed(with(`"type":"SIMULATION",`, ``)), "no experiment type"},
		"a start in the future":     {signed(with(`2024-03-01`, `9999-03-01`)), "ahead of this client's clock"},
		"another server":            {signed(with(server, "other.example:8443/api/v1")), "other.example:8443/api/v1"},
		"no server":                 {signed(with(`"server":"`+server+`",`, ``)), "names no server"},
		"not an outcome":            {signed(with(`"succeeded"`, `"pending"`)), "not an end"},
		"decided by nothing known":  {signed(with(`"outcome":"succeeded"`, `"outcome":"succeeded","decided":{"by":"a guess"}`)), "evidence of no known kind"},
		"decided entry not an id":   {signed(with(`"outcome":"succeeded"`, `"outcome":"succeeded","decided":{"by":"listed","entry":{"id":0,"rcId":5004,"name":"S"}}`)), "not an id"},
		"version 2 with a server":   {v2(good), "fields of version 3"},
		"legacy, no start":          {`{"rcId":10303,"scenarioId":103,"type":"SIMULATION","listed":[],"endedBefore":true}`, "no start time"},
		"legacy, trailing":          {`{"rcId":10303,"scenarioId":103,"type":"SIMULATION","listed":[],"endedBefore":true,"started":"2024-03-01T09:00:00Z"}{}`, "after its end"},
		"legacy, a key as its type": {`{"rcId":10303,"scenarioId":103,"type":"` + pastedKey + `","listed":[],"endedBefore":true,"started":"2024-03-01T09:00:00Z"}`, "experiment type"},
		"legacy, a key as a field":  {`{"` + pastedKey + `":1}`, "unknown field"},
		"legacy, rcId twice":        {`{"rcId":10303,"rcId":1,"scenarioId":103,"type":"SIMULATION","listed":[],"endedBefore":true,"started":"2024-03-01T09:00:00Z"}`, "twice"},
		"too long":                  {runTokenPrefix + strings.Repeat("A", maxResumeToken), "longer than"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.ResumeRunFromToken(tc.token)
			require.ErrorIs(t, err, ErrValidation)
			assert.Contains(t, err.Error(), "ResumeRunFromToken: token (")
			assert.Contains(t, err.Error(), tc.why)
			assert.NotContains(t, err.Error(), pastedKey, "a token's content is never quoted")
			if body := strings.TrimPrefix(tc.token, runTokenPrefix); len(body) >= 12 {
				assert.NotContains(t, err.Error(), body[:12], "a token's content is never quoted")
			}
			assert.Less(t, len(err.Error()), 400, "a token of any length is not quoted")
			if name != "another server" && name != "a start in the future" {
				_, err = TokenSubject(tc.token)
				assert.ErrorIs(t, err, ErrValidation, "TokenSubject refuses it too")
			}
		})
	}
}

// WithFormerServers resumes the tokens of a server that moved, and no
// others; its servers are checked.
func TestFormerServers(t *testing.T) {
	srv, c, clk := newVirtualFake(t, time.Minute)
	good := `{"server":"old.example:8443/api/v1","rcId":10303,"scenarioId":103,"type":"SIMULATION","listed":[],"started":"2024-03-01T09:00:00Z","ended":false}`
	_, err := c.ResumeRunFromToken(signed(good))
	require.ErrorIs(t, err, ErrValidation)
	moved := newTestClient(t, srv.URL, WithClock(clk), WithFormerServers("https://OLD.example:8443/api/v1/"))
	run := must(moved.ResumeRunFromToken(signed(good)))(t)
	assert.Equal(t, ids.RcID(10303), run.RcID())
	_, err = moved.ResumeRunFromToken(signed(strings.Replace(good, "old.example", "older.example", 1)))
	assert.ErrorIs(t, err, ErrValidation, "only the servers named")
	for _, bad := range [][]string{nil, {""}, {"://"}} {
		_, err := New(srv.URL, WithFormerServers(bad...))
		assert.ErrorContains(t, err, "WithFormerServers", "%q", bad)
	}
}

// A server is named by its host, in lower case and without a default port,
// and its path, without a trailing slash.
func TestServerNames(t *testing.T) {
	for in, want := range map[string]string{
		"https://SCM.example.com:443/api/v1/": "scm.example.com/api/v1",
		"https://scm.example.com:8443/api/v1": "scm.example.com:8443/api/v1",
		"http://scm.example.com:80/api/v1":    "scm.example.com/api/v1",
		"http://127.0.0.1:8080/api/v1/":       "127.0.0.1:8080/api/v1",
		"https://[::1]/api/v1":                "[::1]/api/v1",
		"scm.example.com/api/v1":              "scm.example.com/api/v1",
	} {
		got, err := normalServer(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
}
