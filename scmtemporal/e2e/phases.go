package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
)

// settle is how long after its workers are gone a phase waits before it
// asks the fake: every run started has ended (the fake lists a run once
// finished) and the status's lag is over.
func (c config) settle() time.Duration { return c.fake.runDuration + c.fake.statusLag + 3*time.Second }

// temporalPhase runs the plan on Temporal with killed workers and reads
// what the fake and the exports say of every item.
func temporalPhase(ctx context.Context, cfg config) (phaseReport, error) {
	dir := filepath.Join(cfg.dir, "temporal")
	rep := phaseReport{name: temporalPhaseName(cfg)}
	planPath, err := writePlan(dir, cfg.items)
	if err != nil {
		return rep, err
	}
	plan, err := batch.ReadPlan(planPath)
	if err != nil {
		return rep, err
	}
	addr, stopServer, err := temporalServer(ctx, cfg, dir)
	if err != nil {
		return rep, err
	}
	defer stopServer()
	fake := newFake(cfg.fake)
	defer fake.kill()
	self, err := os.Executable()
	if err != nil {
		return rep, err
	}
	journalPath := filepath.Join(dir, "attempts.jsonl")
	workers := newPool(self, dir, addr, journalPath, fake.env(), cfg.workers)
	defer workers.stopAll()
	if err := workers.startAll(ctx); err != nil {
		return rep, err
	}
	c, err := client.Dial(client.Options{HostPort: addr, Logger: quietLogger{}})
	if err != nil {
		return rep, err
	}
	defer c.Close()
	stopBusy, err := startBusy(ctx, cfg, fake)
	if err != nil {
		return rep, err
	}
	outcomes, err := rep.runUnderKills(ctx, cfg, c, plan, workers)
	busy := stopBusy()
	if err != nil {
		return rep, err
	}
	if err := rep.addOutcomes(outcomes, journalPath); err != nil {
		return rep, err
	}
	if err := rep.readFake(ctx, cfg, fake, busy, filepath.Join(dir, "out")); err != nil {
		return rep, err
	}
	rep.checkClaims(outcomes)
	rep.excuseAmbiguous()
	return rep, nil
}

func temporalPhaseName(cfg config) string {
	name := fmt.Sprintf("Temporal: %d workers, one killed (SIGKILL) every %s-%s, status lag %s", cfg.workers, cfg.killMin, cfg.killMax, cfg.fake.statusLag)
	if cfg.targetRate > 0 {
		name += fmt.Sprintf(", and the worker of %.0f%% of the attempts of %s killed within %s of their start",
			100*cfg.targetRate, cfg.targetActivities, cfg.targetDelay)
	}
	return name
}

// temporalServer returns the frontend's address: -temporal's, or a dev
// server's that it starts (stop stops it).
func temporalServer(ctx context.Context, cfg config, dir string) (addr string, stop func(), err error) {
	if cfg.temporal != "" {
		return cfg.temporal, func() {}, nil
	}
	began := time.Now()
	dev, addr, err := startDevServer(ctx, cfg.temporalCLI, dir)
	if err != nil {
		return "", nil, err
	}
	fmt.Printf("e2e: Temporal dev server at %s, ready in %s\n", addr, time.Since(began).Round(100*time.Millisecond))
	return addr, func() { dev.stop(10 * time.Second) }, nil
}

// runUnderKills starts the plan's workflows and waits for them within the
// deadline while workers are killed; then it kills every worker, so that
// nothing of theirs reaches the fake afterwards.
func (r *phaseReport) runUnderKills(ctx context.Context, cfg config, c client.Client, plan *batch.Plan, workers *pool) ([]outcome, error) {
	stopKills := startKills(ctx, cfg, workers)
	runCtx, cancel := context.WithTimeout(ctx, cfg.deadline)
	began := time.Now()
	outcomes, err := runPlan(runCtx, c, plan, cfg)
	r.wall = time.Since(began)
	cancel()
	if killErr := stopKills(); killErr != nil {
		r.notes = append(r.notes, "kills: "+killErr.Error())
	}
	workers.stopAll()
	r.kills = workers.killed()
	return outcomes, err
}

// startKills starts the random kills and, with -target-rate, the aimed
// ones; stop ends them and returns what went wrong.
func startKills(ctx context.Context, cfg config, workers *pool) (stop func() error) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 2)
	go func() { done <- workers.chaos(ctx, rand.New(rand.NewPCG(cfg.seed, 1)), cfg.killMin, cfg.killMax) }()
	go func() {
		if cfg.targetRate == 0 {
			done <- nil
			return
		}
		aims := map[string]bool{}
		for _, name := range strings.Split(cfg.targetActivities, ",") {
			aims[strings.TrimSpace(name)] = true
		}
		done <- workers.targeted(ctx, rand.New(rand.NewPCG(cfg.seed, 2)), aims, cfg.targetRate, cfg.targetDelay)
	}()
	return func() error {
		cancel()
		return errors.Join(<-done, <-done)
	}
}

// addOutcomes records the items lost, the attempts' sums and each lost
// item's attempt history.
func (r *phaseReport) addOutcomes(outcomes []outcome, journalPath string) error {
	journal, err := readJournal(journalPath)
	if err != nil {
		return err
	}
	r.attempts = summarizeAttempts(journal)
	for _, o := range outcomes {
		if o.err != nil {
			r.lost = append(r.lost, fmt.Sprintf("%s (%s; workflow %s): %v", o.name, o.status, o.workflowID, o.err))
			r.lostItems = append(r.lostItems, lostItem{name: o.name, status: o.status})
			r.histories = append(r.histories, history(o.workflowID, journal[o.workflowID], r.kills))
		}
	}
	return nil
}

// batchPhase runs the same plan with scm batch on this machine against a
// fresh fake of the same settings.
func batchPhase(ctx context.Context, cfg config) (phaseReport, error) {
	dir := filepath.Join(cfg.dir, "batch")
	rep := phaseReport{name: fmt.Sprintf("scm batch --parallel %d, one machine, no kills, status lag %s", cfg.batchParallel, cfg.fake.statusLag)}
	planPath, err := writePlan(dir, cfg.items)
	if err != nil {
		return rep, err
	}
	fake := newFake(cfg.fake)
	defer fake.kill()
	stopBusy, err := startBusy(ctx, cfg, fake)
	if err != nil {
		return rep, err
	}
	runCtx, cancel := context.WithTimeout(ctx, cfg.deadline)
	defer cancel()
	out, err := runBatch(runCtx, cfg.scmBin, planPath, cfg.batchParallel, fake, dir)
	busy := stopBusy()
	rep.wall = out.wall
	if err != nil {
		return rep, err
	}
	if out.exit != nil {
		rep.notes = append(rep.notes, fmt.Sprintf("scm batch exited: %v (see %s)", out.exit, filepath.Join(dir, "scm-batch.log")))
	}
	for i := range cfg.items {
		if st := out.states[itemName(i)]; st != string(batch.Done) {
			rep.lost = append(rep.lost, fmt.Sprintf("%s: state %q", itemName(i), st))
			rep.lostItems = append(rep.lostItems, lostItem{name: itemName(i), status: st})
		}
	}
	if err := rep.readFake(ctx, cfg, fake, busy, filepath.Join(dir, "out")); err != nil {
		return rep, err
	}
	rep.excuseAmbiguous() // judged as the Temporal phase is
	return rep, nil
}

// readFake waits for every run to end, then reads the items' facts, the
// fake's call counts and the output directory.
func (r *phaseReport) readFake(ctx context.Context, cfg config, fake *fakeServer, busy *busyProcess, outDir string) error {
	ctx = context.WithoutCancel(ctx) // an interrupted phase is still reported
	time.Sleep(cfg.settle())
	c, err := facade.New(fake.baseURL, facade.WithAPIKey(fake.key))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	if busy != nil {
		r.notes = append(r.notes, busy.String())
	}
	if r.items, err = facts(ctx, c, outDir, cfg.items, busy.results()); err != nil {
		return err
	}
	if err := checkTellsApart(ctx, c, outDir, r.items); err != nil {
		r.notes = append(r.notes, err.Error())
		r.checkBroken = true
	}
	r.calls = fake.calls("importExcel", "runExperiment", "stopExperiment")
	r.stray, err = strayFiles(outDir, cfg.items)
	return err
}
