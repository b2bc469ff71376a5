package fake_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// TestSeededProjects reads the projects as the real server answers them:
// every field, creationDate in UTC with microseconds, currentUserId the user
// who has the project open, else null.
func TestSeededProjects(t *testing.T) {
	e := setup(t)
	r, err := e.c.GetProjectsWithResponse(e.ctx)
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"accessible": true, "creationDate": "2026-03-10T16:19:55.145394Z", "currentUserId": null, "deleted": false, "id": 1, "name": "Retail Network", "ownerUserId": 1},
		{"accessible": true, "creationDate": "2026-03-11T08:02:41.530117Z", "currentUserId": null, "deleted": false, "id": 2, "name": "Retail Network Archive", "ownerUserId": 1},
		{"accessible": true, "creationDate": "2026-04-02T13:47:09.000080Z", "currentUserId": null, "deleted": false, "id": 3, "name": "Spare Parts", "ownerUserId": 1}
	]`, string(r.Body))
	for _, p := range *r.JSON200 {
		assert.Equal(t, time.UTC, p.CreationDate.Location())
	}

	open, err := e.c.FindAndOpenProjectByNameWithResponse(e.ctx, &gen.FindAndOpenProjectByNameParams{ProjectName: "Spare Parts", FullMatch: true})
	require.NoError(t, err)
	assert.Equal(t, int64(1), *open.JSON200.CurrentUserId, "the caller has it open")
	closed, err := e.c.CloseProjectWithResponse(e.ctx)
	require.NoError(t, err)
	assert.Nil(t, closed.JSON200.CurrentUserId)
	again, err := e.c.CloseProjectWithResponse(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, http.StatusInternalServerError, again.StatusCode())
	assert.Equal(t, "no project is open", *again.JSON5XX.Message)
}

// TestCurrentUserIDIsWhoeverHasItOpen: another user's open project names
// that user.
func TestCurrentUserIDIsWhoeverHasItOpen(t *testing.T) {
	e := setup(t, fake.WithAPIKeys("k1", "k2", "k3"))
	resp, _ := e.raw(t, http.MethodGet, "/open/project/open", q("projectId", "2"), nil, http.Header{"Authorization": {"k3"}})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	r, err := e.c.GetProjectsWithResponse(e.ctx)
	require.NoError(t, err)
	assert.Nil(t, (*r.JSON200)[0].CurrentUserId)
	assert.Equal(t, int64(3), *(*r.JSON200)[1].CurrentUserId)
}

func TestUsers(t *testing.T) {
	e := setup(t, fake.WithAPIKeys("k1", "k2"))
	r, err := e.c.GetCurrentUserWithResponse(e.ctx)
	require.NoError(t, err)
	assert.JSONEq(t, `{"id": 1, "username": "demo", "firstName": "Demo", "lastName": "", "email": "demo@example.com"}`, string(r.Body))
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+"/open/user", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "k2")
	resp, err := e.rawClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var u gen.ApiUserData
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&u))
	assert.Equal(t, gen.ApiUserData{Id: 2, Username: "user2", FirstName: "User2", LastName: "", Email: "user2@example.com"}, u)
}

// TestSeededScenarios lists project 1 as world.md seeds it: names are not
// unique (103 and 105 are both "Simulation").
func TestSeededScenarios(t *testing.T) {
	e := setup(t)
	r, err := e.c.GetScenariosWithResponse(e.ctx, &gen.GetScenariosParams{ProjectId: 1})
	require.NoError(t, err)
	assert.JSONEq(t, `[
		{"id": 101, "name": "Baseline", "type": "GFA"},
		{"id": 102, "name": "Network Design", "type": "NO"},
		{"id": 103, "name": "Simulation", "type": "SIM"},
		{"id": 104, "name": "Broken Data", "type": "SIM"},
		{"id": 105, "name": "Simulation", "type": "SIM"}
	]`, string(r.Body))
	for project, want := range map[ids.ProjectID]string{2: `[{"id": 201, "name": "Archive Baseline", "type": "GFA"}]`, 3: `[{"id": 301, "name": "Spare Parts Baseline", "type": "NO"}]`} {
		r, err := e.c.GetScenariosWithResponse(e.ctx, &gen.GetScenariosParams{ProjectId: project})
		require.NoError(t, err)
		assert.JSONEq(t, want, string(r.Body))
	}
}
