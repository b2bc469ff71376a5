package api_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/spec"
)

func TestEveryOperationHasTheMetadataExtensions(t *testing.T) {
	for id, op := range specOperations(loadSpec(t)) {
		ext := op.op.Extensions
		assert.IsType(t, "", ext["x-snake-case-name"], "%s: x-snake-case-name", id)
		assert.IsType(t, true, ext["x-changes-state"], "%s: x-changes-state", id)
		assert.IsType(t, true, ext["x-paging"], "%s: x-paging", id)
		if ext["x-paging"] == true {
			assert.IsType(t, "", ext["x-paged-items"], "%s: x-paged-items", id)
		}
	}
}

// The generated table is what the facade, the CLI and specdiff read; it must
// say what the spec says.
func TestGeneratedTableMatchesTheSpec(t *testing.T) {
	fromSpec, err := spec.LoadOperations(filepath.Join("openapi.yaml"))
	require.NoError(t, err)
	want, err := json.Marshal(fromSpec)
	require.NoError(t, err)
	got, err := json.Marshal(gen.Operations())
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got), "gen/operations.go is stale: run go generate ./...")
}

func TestAsyncLinks(t *testing.T) {
	starts := map[string]string{}
	for _, op := range gen.Operations() {
		if op.Async != nil && op.Async.Role == "start" {
			starts[op.ID] = op.Async.Poll + " " + op.Async.Cancel + " " + op.Async.ID
		}
	}
	assert.Equal(t, map[string]string{
		"runExperiment":          "getExperimentStatus stopExperiment rcId",
		"copyScenario":           "getImportStatus importCancel jobId",
		"importExcel":            "getImportStatus importCancel jobId",
		"importExcelExisting":    "getImportStatus importCancel jobId",
		"importDatabase":         "getImportStatus importCancel jobId",
		"importDatabaseExisting": "getImportStatus importCancel jobId",
	}, starts)
	for _, op := range gen.Operations() {
		if op.Async == nil || op.Async.Role != "start" {
			continue
		}
		poll, ok := gen.LookupOperation(op.Async.Poll)
		require.True(t, ok)
		assert.Equal(t, "poll", poll.Async.Role, op.ID)
		cancel, ok := gen.LookupOperation(op.Async.Cancel)
		require.True(t, ok)
		assert.Equal(t, "cancel", cancel.Async.Role, op.ID)
	}
}

func TestSensitiveFields(t *testing.T) {
	for _, id := range []string{"getScenariosFromImportedDatabase", "importDatabase", "importDatabaseExisting"} {
		op, ok := gen.LookupOperation(id)
		require.True(t, ok)
		assert.Equal(t, []string{"password"}, op.Body.Sensitive, id)
	}
}

func TestLookupByEitherName(t *testing.T) {
	for _, op := range gen.Operations() {
		byID, ok := gen.LookupOperation(op.ID)
		assert.True(t, ok)
		bySnake, ok := gen.LookupOperation(op.SnakeName)
		assert.True(t, ok)
		assert.Equal(t, byID.ID, bySnake.ID)
	}
	_, ok := gen.LookupOperation("noSuchOperation")
	assert.False(t, ok)
}
