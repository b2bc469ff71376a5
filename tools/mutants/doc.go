// Command mutants checks that the test suite catches the bugs it is meant
// to catch. Each mutation of its table (table.go) is a realistic bug
// written as an edit of one file: the exact text to replace, which must
// occur in the file exactly once, and its replacement. For each mutation
// mutants applies the edit, runs the tests that must catch it
// (go test -count=1 -run RE PKG, with a timeout), and puts the file back,
// byte for byte, before the next.
//
// Run it from the module root (make mutants runs it whole):
//
//	go run ./tools/mutants                   # every mutation
//	go run ./tools/mutants -only 'retry|page' # those whose names match
//	go run ./tools/mutants -list             # the table, and which edits still apply
//	go run ./tools/mutants -baseline         # first check that each one's tests pass unedited
//
// TESTING.md at the module root records the last whole run.
//
// # Verdicts
//
// It prints a line per mutation, as each ends: the verdict, the name, the
// test that failed, and the seconds it took. The exit status is 0 only
// when every mutation run is KILLED.
//
//   - KILLED: a test failed with the edit in place, as it must.
//   - SURVIVED: every test passed: the bug it stands for would go unseen.
//   - STALE: the text to replace is not in the file exactly once (the code
//     changed since the mutation was written); nothing was run. Refresh
//     the mutation's text.
//   - INVALID: the mutation cannot be judged: the edited code does not
//     build, the -run expression matches no test, or (with -baseline) its
//     tests do not pass on the code as it is, so their failure proves
//     nothing.
//   - TIMEOUT: the tests did not end within -timeout. A test that only
//     hangs on a bug is no guard: it must fail in seconds, naming what it
//     waited for.
//
// # The file is always put back
//
// The edited file is restored when the tests end, when the run is
// interrupted (SIGINT, SIGTERM: the tests' processes are killed first),
// and on a panic, and its bytes are read back and compared with the
// original. Before each edit the original is written to .mutants-journal at
// the module root; a run killed outright (SIGKILL) leaves it, and the next
// run restores the file from it before anything else. Run one at a time
// in a tree: a second run refuses to edit while the journal exists.
package main
