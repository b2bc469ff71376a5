package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: e2e run [flags] | e2e worker [flags] | e2e record [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "run":
		err = runMain(os.Args[2:])
	case "worker":
		err = workerMain(os.Args[2:])
	case "record":
		err = recordMain(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: want run, worker or record", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
}

// config is the run subcommand's flags.
type config struct {
	items, workers, batchParallel int
	killMin, killMax, deadline    time.Duration
	heartbeat                     time.Duration
	staleWindow, maxRunLength     time.Duration
	maxJobLength                  time.Duration
	busyEvery                     time.Duration
	targetRate                    float64
	targetDelay                   time.Duration
	targetActivities              string
	fake                          fakeSettings
	temporal, temporalCLI         string
	scmBin, dir                   string
	seed                          uint64
	skipBatch, skipTemporal       bool
}

func parseRun(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("e2e run", flag.ContinueOnError)
	fs.IntVar(&c.items, "items", 200, "plan items")
	fs.IntVar(&c.workers, "workers", 4, "worker processes")
	fs.IntVar(&c.batchParallel, "batch-parallel", 16, "scm batch --parallel")
	fs.DurationVar(&c.killMin, "kill-min", 2*time.Second, "shortest pause between two SIGKILLs")
	fs.DurationVar(&c.killMax, "kill-max", 6*time.Second, "longest pause between two SIGKILLs")
	fs.DurationVar(&c.deadline, "deadline", 15*time.Minute, "how long the workflows may take, all together")
	fs.Float64Var(&c.targetRate, "target-rate", 0, "besides the random kills, kill the worker of an attempt of a -target-activities activity with this probability as it begins (0: none)")
	fs.StringVar(&c.targetActivities, "target-activities", "scm.StartRun,scm.ImportScenario", "the activities -target-rate aims at, comma-separated")
	fs.DurationVar(&c.targetDelay, "target-delay", 20*time.Millisecond, "a targeted kill comes 0 to this long after the attempt began")
	fs.DurationVar(&c.heartbeat, "heartbeat", 0, "heartbeat timeout of the waiting activities (0: package temporal's default)")
	fs.DurationVar(&c.fake.runDuration, "run-duration", 3*time.Second, "how long the fake's runs take")
	fs.DurationVar(&c.fake.importDuration, "import-duration", time.Second, "how long the fake's imports take")
	fs.DurationVar(&c.fake.statusLag, "status-lag", 2*time.Second, "how long after a start the fake's status still shows what it showed before (fake.WithStatusLag)")
	fs.DurationVar(&c.busyEvery, "busy-every", 0, "another process starts a random item's configuration this often while the plan runs, in both phases (0: none)")
	fs.DurationVar(&c.staleWindow, "stale-window", 0, "the items' Options.StaleWindow: longer than -status-lag (0: the facade's 10s)")
	fs.DurationVar(&c.maxRunLength, "max-run-length", 0, "the items' Options.MaxRunLength (0: not declared)")
	fs.DurationVar(&c.maxJobLength, "max-job-length", 0, "the items' Options.MaxJobLength: longer than -import-duration (0: not declared)")
	fs.StringVar(&c.temporal, "temporal", "", "a running Temporal frontend host:port (default: start a dev server with -temporal-cli)")
	fs.StringVar(&c.temporalCLI, "temporal-cli", ".tools/temporal/temporal", "the Temporal CLI, for `temporal server start-dev`")
	fs.StringVar(&c.scmBin, "scm", "bin/scm", "the scm binary")
	fs.StringVar(&c.dir, "dir", "", "work directory: plans, exports, logs (default: a new temporary one)")
	fs.Uint64Var(&c.seed, "seed", uint64(time.Now().UnixNano()), "seed of the kills' timing and targets")
	fs.BoolVar(&c.skipBatch, "skip-batch", false, "run only the Temporal phase")
	fs.BoolVar(&c.skipTemporal, "skip-temporal", false, "run only the scm batch phase")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	switch {
	case c.items < 2:
		return c, errors.New("-items: want 2 or more (the export check compares two items)")
	case c.workers < 1:
		return c, errors.New("-workers: want 1 or more")
	case c.killMin <= 0 || c.killMax < c.killMin:
		return c, errors.New("-kill-min, -kill-max: want 0 < min <= max")
	case c.targetRate < 0 || c.targetRate > 1:
		return c, errors.New("-target-rate: want a probability, 0 to 1")
	}
	return c, nil
}

func runMain(args []string) error {
	cfg, err := parseRun(args)
	if err != nil {
		return err
	}
	if cfg.dir == "" {
		if cfg.dir, err = os.MkdirTemp("", "scm-e2e-temporal-"); err != nil {
			return err
		}
	}
	if cfg.dir, err = filepath.Abs(cfg.dir); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Printf("e2e: work directory %s, seed %d\n", cfg.dir, cfg.seed)
	var reports []phaseReport
	if !cfg.skipTemporal {
		r, err := temporalPhase(ctx, cfg)
		if err != nil {
			return fmt.Errorf("temporal phase: %w", err)
		}
		reports = append(reports, r)
	}
	if !cfg.skipBatch {
		r, err := batchPhase(ctx, cfg)
		if err != nil {
			return fmt.Errorf("scm batch phase: %w", err)
		}
		reports = append(reports, r)
	}
	failed := false
	for _, r := range reports {
		r.print(os.Stdout)
		failed = failed || !r.passed()
	}
	if failed {
		return errors.New("FAIL: see the report above")
	}
	fmt.Println("PASS")
	return nil
}
