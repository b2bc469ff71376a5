package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command: its exit status is 0 only when every mutation run
// is killed (or, with -list, every edit still applies).
func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("mutants", flag.ContinueOnError)
	fl.SetOutput(stderr)
	only := fl.String("only", "", "run only the mutations whose names match this regular expression")
	list := fl.Bool("list", false, "list the mutations, and whether each edit still applies, without running any test")
	timeout := fl.Duration("timeout", 3*time.Minute, "go test's -timeout for each mutation's tests")
	baseline := fl.Bool("baseline", false, "first run each mutation's tests on the code as it is: a mutation whose tests fail there is INVALID")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(stderr, "mutants:", err)
		return 2
	}
	selected, err := selectMutations(table, *only)
	if err != nil {
		fmt.Fprintln(stderr, "mutants:", err)
		return 2
	}
	if *list {
		return listMutations(stdout, root, selected)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	r := &runner{root: root, timeout: *timeout, out: stdout, baseline: *baseline}
	if err := r.runAll(ctx, selected); err != nil {
		fmt.Fprintln(stderr, "mutants:", err)
		return 2
	}
	if !r.allKilled() {
		return 1
	}
	return 0
}

// moduleRoot is the directory of the main module's go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("run it inside the module (go env GOMOD: %q, %v)", gomod, err)
	}
	return filepath.Dir(gomod), nil
}

// selectMutations checks the table and returns the mutations whose names
// match only ("" matches all); none is an error.
func selectMutations(all []Mutation, only string) ([]Mutation, error) {
	if err := checkTable(all); err != nil {
		return nil, err
	}
	re, err := regexp.Compile(only)
	if err != nil {
		return nil, fmt.Errorf("-only: %w", err)
	}
	var out []Mutation
	for _, m := range all {
		if re.MatchString(m.Name) {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-only %q matches no mutation", only)
	}
	return out, nil
}

// listMutations prints each mutation and whether its edit still applies;
// 1 when one does not.
func listMutations(w io.Writer, root string, ms []Mutation) int {
	status := 0
	for _, m := range ms {
		applies := "applies"
		if _, _, err := mutated(root, m); err != nil {
			applies, status = Stale+": "+err.Error(), 1
		}
		fmt.Fprintf(w, "%s\n\tbreaks: %s\n\tedit:   %s (%s)\n\tkiller: go test -run '%s' %s\n", m.Name, m.Breaks, m.File, applies, m.Run, m.Pkg)
	}
	return status
}

// result is the verdict on one mutation.
type result struct {
	Mutation
	testRun
	elapsed time.Duration
}

// runner runs mutations one after the other and prints a line for each.
type runner struct {
	root     string
	timeout  time.Duration
	out      io.Writer
	baseline bool               // run the tests on the code as it is first
	bases    map[string]testRun // the baseline runs, by package and -run
	results  []result
	width    int // of the widest name
}

func (r *runner) runAll(ctx context.Context, ms []Mutation) error {
	if rel, err := recoverJournal(r.root); err != nil {
		return err
	} else if rel != "" {
		fmt.Fprintf(r.out, "restored %s, which a killed run left edited\n", rel)
	}
	for _, m := range ms {
		r.width = max(r.width, len(m.Name))
	}
	start := time.Now()
	for _, m := range ms {
		res, err := r.runOne(ctx, m)
		if err != nil {
			return fmt.Errorf("mutation %s: %w", m.Name, err)
		}
		r.results = append(r.results, res)
		r.print(res)
	}
	fmt.Fprintln(r.out, r.summary(time.Since(start)))
	return nil
}

// runOne applies m, runs its tests and restores the file, whatever
// happens meanwhile (the restore is deferred, and an interrupt ends the
// tests through ctx).
func (r *runner) runOne(ctx context.Context, m Mutation) (res result, err error) {
	start := time.Now()
	res.Mutation = m
	defer func() { res.elapsed = time.Since(start) }()
	if r.baseline {
		if res.testRun, err = r.checkBaseline(ctx, m); err != nil || res.verdict != "" {
			return res, err
		}
	}
	e, err := apply(r.root, m)
	var stale *staleError
	if errors.As(err, &stale) {
		res.verdict, res.detail = Stale, stale.Error()
		return res, nil
	}
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, e.restore()) }()
	res.testRun, err = goTest(ctx, r.root, m.Pkg, m.Run, r.timeout)
	return res, err
}

// checkBaseline runs m's tests on the code as it is, once for each
// package and -run: a verdict of INVALID when they do not pass there, an
// empty one when they do (or when m is stale, which apply reports).
func (r *runner) checkBaseline(ctx context.Context, m Mutation) (testRun, error) {
	if _, _, err := mutated(r.root, m); err != nil {
		return testRun{}, nil
	}
	key := m.Pkg + "\x00" + m.Run
	base, done := r.bases[key]
	if !done {
		var err error
		if base, err = goTest(ctx, r.root, m.Pkg, m.Run, r.timeout); err != nil {
			return testRun{}, err
		}
		if r.bases == nil {
			r.bases = map[string]testRun{}
		}
		r.bases[key] = base
	}
	if base.verdict == Survived {
		return testRun{}, nil
	}
	why := "they fail"
	if base.verdict != Killed {
		why = strings.ToLower(base.verdict) + ": " + base.detail
	}
	return testRun{verdict: Invalid, failed: base.failed, detail: "the tests do not pass on the code as it is (" + why + ")"}, nil
}

func (r *runner) print(res result) {
	who := strings.Join(res.failed, ", ")
	if len(res.failed) > 2 {
		who = fmt.Sprintf("%s, %s (+%d)", res.failed[0], res.failed[1], len(res.failed)-2)
	}
	if res.verdict != Killed {
		who = strings.TrimSpace(who + " " + res.detail)
	}
	fmt.Fprintf(r.out, "%-8s  %-*s  %6.1fs  %s\n", res.verdict, r.width, res.Name, res.elapsed.Seconds(), who)
}

// summary counts the verdicts.
func (r *runner) summary(took time.Duration) string {
	count := map[string]int{}
	for _, res := range r.results {
		count[res.verdict]++
	}
	parts := []string{fmt.Sprintf("%d killed", count[Killed])}
	for _, v := range []string{Survived, Stale, Invalid, TimedOut} {
		if count[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[v], strings.ToLower(v)))
		}
	}
	return fmt.Sprintf("%d mutations: %s, in %s", len(r.results), strings.Join(parts, ", "), took.Round(time.Second))
}

func (r *runner) allKilled() bool {
	for _, res := range r.results {
		if res.verdict != Killed {
			return false
		}
	}
	return len(r.results) > 0
}
