// Command e2e is the end-to-end test of the scmtemporal module against a
// Temporal development server, and its comparison with `scm batch`: `make
// e2e-temporal` builds and runs it (not part of `make ci`).
//
//	e2e run -items 200 -workers 4 -temporal-cli .tools/temporal/temporal \
//	    -scm bin/scm -dir /tmp/e2e [-status-lag 5s] [-busy-every 1s]
//
// # What it does
//
// It writes a plan of N items, each importing one workbook as a scenario
// of its own name (e2e-item-NNN), running its SIMULATION and exporting its
// dashboard. Then:
//
//   - Temporal: it starts `temporal server start-dev --headless` on free
//     ports (in-memory store) unless -temporal names a running one, the
//     fake modelling server in this process (-run-duration,
//     -import-duration, -status-lag), and W worker processes (this
//     command's worker subcommand). It starts the plan's workflows and
//     waits for them all within -deadline, while it kills a worker at
//     random with SIGKILL every -kill-min to -kill-max and starts it again.
//   - scm batch: a fresh fake with the same settings, and `scm batch
//     -parallel P` on the same plan, on this machine.
//
// With -busy-every, in both phases, another process starts a random
// item's configuration that often while the plan runs (a busy
// experiment), and records the runs it made: they are no item's.
//
// Kills can also be aimed (-target-rate, -target-activities, default
// scm.StartRun,scm.ImportScenario): when an attempt of such an activity begins (read
// from the attempts journal), its worker is killed with that probability
// within -target-delay, close to the call the activity sends, where the
// retry must settle what the dead attempt did. Random kills alone seldom
// land there.
//
// # What it checks
//
// After each phase, once every worker is gone and every run has had time to
// end, it asks the fake, not the workflows: per item, the scenarios of the
// item's name (imports, must be 1) and the runs listed for that scenario
// that the busy process did not make (runs started, must be 1: the fake
// lists a finished run, and this test stops none), and it compares the
// exported workbook, cell by cell, with a fresh export of the item's own
// experimentResultId: a workbook that is another item's result, or none,
// is counted. Items lost are those whose workflow did not complete (or
// that scm batch did not report done), but for one that ended unknown
// with one run of its own beside a busy run on its configuration, which is
// counted apart. Each check also compares one item's workbook with another
// item's result, which must differ, so that the check cannot pass by
// comparing alike things. The fake's counters give the runExperiment,
// importExcel and stopExperiment calls that reached it and that it
// applied. The report gives the mean time of each activity's attempts.
//
// For each failed item the report prints the attempt history of its
// workflow: each activity attempt (from a journal the workers append to
// through an interceptor), its worker and how it ended, and the kills sent
// meanwhile. `make e2e-temporal E2E_FLAGS=...` passes flags; `e2e run -h`
// lists them. TESTING.md records the last run.
//
// # Recording histories
//
//	e2e record -temporal-cli .tools/temporal/temporal -out scmtemporal/testdata/histories
//
// runs ItemWorkflow on a development server, against the fake in this
// process, to each end an item can have (done, failed, unknown,
// cancelled, its worker killed with SIGKILL mid-wait, queued behind
// another process's run), and writes each history as JSON: the module's
// replay test replays them (`make record-temporal-histories`).
package main
