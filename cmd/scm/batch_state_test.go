package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
