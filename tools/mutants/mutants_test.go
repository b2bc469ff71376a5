package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	calcGo = `package calc

func Add(a, b int) int { return a + b }

func Sub(a, b int) int { return a - b }

func Wait(a int) int { return a }
`
	calcTestGo = `package calc

import "testing"

func TestAdd(t *testing.T) {
	t.Run("small", func(t *testing.T) {
		if Add(2, 3) != 5 {
			t.Fatal("Add(2, 3) is not 5")
		}
	})
}

func TestWait(t *testing.T) {
	if Wait(1) != 1 {
		t.Fatal("Wait(1) is not 1")
	}
}

func TestSubIsBroken(t *testing.T) {
	if Sub(3, 1) != 3 {
		t.Fatal("Sub(3, 1) is not 3")
	}
}
`
)

// tempModule writes a module of one small package, calc, whose tests
// check Add and Wait but not Sub, and returns its root.
func tempModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "calc/calc.go": calcGo, "calc/calc_test.go": calcTestGo} {
		path := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	return root
}

// calcMutation is a mutation of calc/calc.go caught, if at all, by run.
func calcMutation(name, old, new, run string) Mutation {
	return Mutation{Name: name, File: "calc/calc.go", Old: old, New: new, Pkg: "./calc", Run: run}
}

func testContext(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

// assertRestored checks that calc.go holds its original bytes and that no
// journal is left.
func assertRestored(t *testing.T, root string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "calc", "calc.go"))
	require.NoError(t, err)
	assert.Equal(t, calcGo, string(b), "the file is restored")
	assert.NoFileExists(t, journalPath(root))
}

// Each verdict, on a module of its own: the file is restored after every
// mutation, whatever its verdict.
func TestVerdicts(t *testing.T) {
	root := tempModule(t)
	ms := []Mutation{
		calcMutation("killed", "a + b", "a * b", "^TestAdd$"),
		calcMutation("survived", "a - b", "a + b", "^TestAdd$"),
		calcMutation("absent", "a / b", "a * b", "^TestAdd$"),
		calcMutation("twice", "int) int", "int) int64", "^TestAdd$"),
		calcMutation("broken", "return a + b", "return a +", "^TestAdd$"),
		calcMutation("no-test", "a + b", "a * b", "^TestNothing$"),
		calcMutation("hangs", "return a }", "<-make(chan int); return a }", "^TestWait$"),
	}
	var out bytes.Buffer
	r := &runner{root: root, timeout: 3 * time.Second, out: &out}
	require.NoError(t, r.runAll(testContext(t, 4*time.Minute), ms))
	t.Log("\n" + out.String())
	want := map[string]string{"killed": Killed, "survived": Survived, "absent": Stale, "twice": Stale, "broken": Invalid, "no-test": Invalid, "hangs": TimedOut}
	got := map[string]string{}
	for _, res := range r.results {
		got[res.Name] = res.verdict
	}
	assert.Equal(t, want, got)
	assertRestored(t, root)
	assert.False(t, r.allKilled())

	byName := func(name string) result {
		for _, res := range r.results {
			if res.Name == name {
				return res
			}
		}
		t.Fatalf("no result for %s", name)
		return result{}
	}
	assert.Equal(t, []string{"TestAdd/small"}, byName("killed").failed, "the leaf test that failed")
	assert.Contains(t, byName("killed").detail, "Add(2, 3) is not 5")
	assert.Equal(t, "the text to replace is not in calc/calc.go", byName("absent").detail)
	assert.Equal(t, "the text to replace is in calc/calc.go 3 times, not once", byName("twice").detail)
	assert.Contains(t, byName("broken").detail, "does not build: ")
	assert.Equal(t, "no test matched -run", byName("no-test").detail)
	assert.Equal(t, []string{"TestWait"}, byName("hangs").failed, "the test that hung")

	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, len(ms)+1, "a line per mutation and the summary")
	assert.Regexp(t, `^KILLED    killed    +\d+\.\ds  TestAdd/small$`, lines[0])
	assert.Regexp(t, `^STALE     absent    +\d+\.\ds  the text to replace is not in calc/calc.go$`, lines[2])
	assert.Regexp(t, `^7 mutations: 1 killed, 1 survived, 2 stale, 2 invalid, 1 timeout, in \d+s$`, lines[len(lines)-1])
}

// With -baseline, a mutation whose tests fail on the code as it is is
// INVALID: its kill would prove nothing.
func TestBaseline(t *testing.T) {
	root := tempModule(t)
	ms := []Mutation{
		calcMutation("killed", "a + b", "a * b", "^TestAdd$"),
		calcMutation("killed-too", "a + b", "a - b", "^TestAdd$"),
		calcMutation("failing-test", "a - b", "a + b", "^TestSubIsBroken$"),
		calcMutation("absent", "a / b", "a * b", "^TestWait$"),
	}
	r := &runner{root: root, timeout: time.Minute, out: &bytes.Buffer{}, baseline: true}
	require.NoError(t, r.runAll(testContext(t, 4*time.Minute), ms))
	got := map[string]string{}
	for _, res := range r.results {
		got[res.Name] = res.verdict
	}
	assert.Equal(t, map[string]string{"killed": Killed, "killed-too": Killed, "failing-test": Invalid, "absent": Stale}, got)
	assert.Contains(t, r.results[2].detail, "the tests do not pass on the code as it is (they fail)")
	assert.Len(t, r.bases, 2, "one baseline run for each package and -run, none for a stale mutation")
	assertRestored(t, root)
}

// Interrupted while the tests run (ctx ends, as SIGINT and SIGTERM end
// it), the runner kills the tests, restores the file and says so.
func TestInterruptRestores(t *testing.T) {
	root := tempModule(t)
	ctx, cancel := context.WithCancel(testContext(t, 2*time.Minute))
	defer cancel()
	r := &runner{root: root, timeout: time.Hour, out: &bytes.Buffer{}}
	done := make(chan error, 1)
	go func() {
		_, err := r.runOne(ctx, calcMutation("hangs", "return a }", "<-make(chan int); return a }", "^TestWait$"))
		done <- err
	}()
	for !fileContains(t, filepath.Join(root, "calc", "calc.go"), "<-make") {
		select {
		case err := <-done:
			t.Fatalf("the mutation ended before it was applied: %v", err)
		case <-ctx.Done():
			t.Fatal("the mutation was not applied within 2 minutes")
		case <-time.After(10 * time.Millisecond):
		}
	}
	time.Sleep(500 * time.Millisecond) // go test under way
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(time.Minute):
		t.Fatal("the runner did not end within a minute of the interrupt")
	}
	assertRestored(t, root)
}

func fileContains(t *testing.T, path, s string) bool {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return bytes.Contains(b, []byte(s))
}

// A run killed outright leaves the journal; the next run restores the
// file from it before anything else, and refuses to edit while it exists.
func TestJournalRestoresAfterAKill(t *testing.T) {
	root := tempModule(t)
	m := calcMutation("killed", "a + b", "a * b", "^TestAdd$")
	_, err := apply(root, m) // and never restored: the run is killed
	require.NoError(t, err)
	assert.True(t, fileContains(t, filepath.Join(root, "calc", "calc.go"), "a * b"))
	_, err = apply(root, m)
	assert.ErrorContains(t, err, ".mutants-journal exists")

	var out bytes.Buffer
	r := &runner{root: root, timeout: time.Minute, out: &out}
	require.NoError(t, r.runAll(testContext(t, 2*time.Minute), []Mutation{m}))
	assert.True(t, strings.HasPrefix(out.String(), "restored calc/calc.go, which a killed run left edited\nKILLED"), out.String())
	assertRestored(t, root)

	require.NoError(t, os.WriteFile(journalPath(root), []byte("something else\n"), 0o644))
	_, err = recoverJournal(root)
	assert.ErrorContains(t, err, "is not a journal this tool wrote")
	require.NoError(t, os.WriteFile(journalPath(root), []byte(journalHeader+"../outside.go\nx"), 0o644))
	_, err = recoverJournal(root)
	assert.ErrorContains(t, err, "is not a journal this tool wrote", "a path outside the module")
}

func TestTableMistakes(t *testing.T) {
	ok := calcMutation("a", "x", "y", "^T$")
	for want, m := range map[string]Mutation{
		"has no name":            {File: "f", Old: "x", Pkg: "p", Run: "r"},
		"must all be set":        {Name: "a", Old: "x", Pkg: "p", Run: "r"},
		"the edit changes":       {Name: "a", File: "f", Old: "x", New: "x", Pkg: "p", Run: "r"},
		"error parsing regexp":   {Name: "a", File: "f", Old: "x", Pkg: "p", Run: "("},
		"the name is used twice": ok,
	} {
		table := []Mutation{m}
		if m == ok {
			table = append(table, ok)
		}
		assert.ErrorContains(t, checkTable(table), want)
	}
	_, err := selectMutations([]Mutation{ok}, "^b$")
	assert.ErrorContains(t, err, `-only "^b$" matches no mutation`)
}

// The table itself is well formed. Whether each edit still applies is
// -list's to say: a change elsewhere may make one stale, and refreshing it
// is a separate step.
func TestTableIsWellFormed(t *testing.T) {
	require.NoError(t, checkTable(table))
	assert.GreaterOrEqual(t, len(table), 25)
	for _, m := range table {
		assert.NotEmpty(t, m.Breaks, m.Name)
		assert.True(t, strings.HasPrefix(m.Pkg, "./"), "%s: the package is relative to the module root", m.Name)
	}
}
