package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
)

// A state file that a crash left empty, or that holds no state, exits 2
// naming the file and what to do, and sends nothing: it started the batch
// over, importing and running every item again.
func TestBatchRefusesAStateFileThatIsNoState(t *testing.T) {
	for name, content := range map[string]string{"empty": "", "white space": " \n", "items {}": `{"version":1,"plan":"plan.yaml","items":{}}`} {
		t.Run(name, func(t *testing.T) {
			srv, flags := newBatchServer(t, time.Millisecond)
			plan := writeBatchPlan(t)
			r := scm(t, "", append([]string{"batch", plan, "--quiet"}, flags...)...)
			require.Equal(t, exitAPI, r.code, "the plan has an item that fails: %s", r.stderr)
			imports, runs := srv.Applied("importExcel"), srv.Applied("runExperiment")
			state := filepath.Join(filepath.Dir(plan), "plan.state.json")
			require.NoError(t, os.WriteFile(state, []byte(content), 0o600))

			r = scm(t, "", append([]string{"batch", plan}, flags...)...)
			assert.Equal(t, exitUsage, r.code, r.stderr)
			assert.Contains(t, r.stderr, "batch: state file "+state)
			assert.Contains(t, r.stderr, "restore it, or remove it to start the batch anew")
			assert.Equal(t, imports, srv.Applied("importExcel"), "no import sent again")
			assert.Equal(t, runs, srv.Applied("runExperiment"), "no run sent again")
		})
	}
}

// A state file that writes a key twice, or is larger than
// batch.MaxStateBytes, exits 2 naming the file (and the line), and sends
// nothing: the key twice was taken, the last one winning, with exit 0.
func TestBatchRefusesARepeatedKeyOrAHugeStateFile(t *testing.T) {
	for name, tc := range map[string]struct {
		damage func(t *testing.T, state string)
		want   string
	}{
		"an item twice": {func(t *testing.T, state string) {
			b, err := os.ReadFile(state)
			require.NoError(t, err)
			twice := strings.Replace(string(b), `"items": {`, `"items": {"a": {"digest": "x", "status": "done"}, "a": {"digest": "x", "status": "pending"},`, 1)
			require.NoError(t, os.WriteFile(state, []byte(twice), 0o600))
		}, `: line 4: key "a" written again (first at line 4)`},
		"larger than the limit": {func(t *testing.T, state string) {
			require.NoError(t, os.Truncate(state, batch.MaxStateBytes+1))
		}, " is 67108865 bytes, more than the 67108864 bytes (64 MiB) a state file may hold: it is not a batch's state"},
	} {
		t.Run(name, func(t *testing.T) {
			srv, flags := newBatchServer(t, time.Millisecond)
			plan := writeBatchPlan(t)
			r := scm(t, "", append([]string{"batch", plan, "--quiet"}, flags...)...)
			require.Equal(t, exitAPI, r.code, "the plan has an item that fails: %s", r.stderr)
			imports, runs := srv.Applied("importExcel"), srv.Applied("runExperiment")
			state := filepath.Join(filepath.Dir(plan), "plan.state.json")
			tc.damage(t, state)

			r = scm(t, "", append([]string{"batch", plan}, flags...)...)
			assert.Equal(t, exitUsage, r.code, r.stderr)
			assert.Contains(t, r.stderr, "batch: state file "+state+tc.want)
			assert.Equal(t, imports, srv.Applied("importExcel"), "no import sent again")
			assert.Equal(t, runs, srv.Applied("runExperiment"), "no run sent again")
		})
	}
}
