package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/tree.txt")

// The workflow's trace tree is the golden one: every call, its attempts,
// the retry, the job's and the run's waits with their polls and changes
// of state, and the dashboard's pages. The database password is nowhere.
func TestTraceTree(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	var out strings.Builder
	require.NoError(t, run(ctx, &out))
	got := out.String()
	assert.NotContains(t, got, "db-secret")

	path := filepath.Join("testdata", "golden", "tree.txt")
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "go test -run TestTraceTree -update creates %s", path)
	assert.Equal(t, string(want), got, "the tree differs from %s; if the change is meant, go test -run TestTraceTree -update rewrites it", path)
}
