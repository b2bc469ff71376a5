package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// pool is the worker processes of the Temporal phase: W slots, each
// running this command's worker subcommand, killed and started again by
// chaos.
type pool struct {
	self, dir, temporal string
	journal             string // the attempts journal every worker appends to
	env                 []string

	killMu sync.Mutex // one kill and restart at a time
	mu     sync.Mutex
	procs  []*proc
	kills  []kill // in order
	start  []int  // starts per slot
}

// kill is one SIGKILL the chaos sent: to the worker of that identity.
type kill struct {
	identity string
	at       time.Time
}

func newPool(self, dir, temporal, journal string, env []string, workers int) *pool {
	return &pool{self: self, dir: dir, temporal: temporal, journal: journal, env: env, procs: make([]*proc, workers), start: make([]int, workers)}
}

// startAll starts every slot's worker.
func (p *pool) startAll(ctx context.Context) error {
	for i := range p.procs {
		if err := p.startSlot(ctx, i); err != nil {
			return err
		}
	}
	return nil
}

// startSlot starts slot i's worker, its log in dir/worker-i.log; the
// worker prints "worker ready" once it polls.
func (p *pool) startSlot(ctx context.Context, i int) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	p.mu.Lock()
	p.start[i]++
	identity := fmt.Sprintf("worker-%d.%d", i, p.start[i])
	p.mu.Unlock()
	log := filepath.Join(p.dir, fmt.Sprintf("worker-%d.log", i))
	w, _, err := startProc(ctx, identity, log, p.env, "worker ready", p.self, "worker", "-temporal", p.temporal,
		"-identity", identity, "-journal", p.journal)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.procs[i] = w
	p.mu.Unlock()
	return nil
}

// chaos kills a worker at random every min to max (uniform), with
// SIGKILL, and starts it again at once, until ctx ends.
func (p *pool) chaos(ctx context.Context, rng *rand.Rand, lo, hi time.Duration) error {
	for {
		wait := lo + time.Duration(rng.Int64N(int64(hi-lo)+1))
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		p.mu.Lock()
		identity := p.procs[rng.IntN(len(p.procs))].name
		p.mu.Unlock()
		if err := p.killAndRestart(ctx, identity); err != nil {
			return err
		}
	}
}

// killAndRestart kills the worker of that identity, if it still runs,
// and starts its slot again. Kills are one at a time.
func (p *pool) killAndRestart(ctx context.Context, identity string) error {
	p.killMu.Lock()
	defer p.killMu.Unlock()
	p.mu.Lock()
	slot := -1
	for i, w := range p.procs {
		if w.name == identity && !w.exited() {
			slot = i
		}
	}
	if slot < 0 {
		p.mu.Unlock()
		return nil
	}
	w := p.procs[slot]
	p.kills = append(p.kills, kill{identity: identity, at: time.Now()})
	p.mu.Unlock()
	w.kill()
	if err := p.startSlot(context.WithoutCancel(ctx), slot); err != nil {
		return fmt.Errorf("starting worker %d again: %w", slot, err)
	}
	return nil
}

// targeted reads the attempts journal as the workers write it and, when
// an attempt of one of the activities begins, kills its worker with
// probability rate, within maxDelay of the journal line: a kill close to
// the call the activity sends (a start, an import), where a retry must
// settle what the dead attempt did.
func (p *pool) targeted(ctx context.Context, rng *rand.Rand, activities map[string]bool, rate float64, maxDelay time.Duration) error {
	f, err := os.Open(p.journal)
	for errors.Is(err, fs.ErrNotExist) && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
		f, err = os.Open(p.journal)
	}
	if err != nil {
		return nil // the context ended before any attempt began
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var partial []byte
	for ctx.Err() == nil {
		line, err := r.ReadBytes('\n')
		partial = append(partial, line...)
		if err != nil { // no whole line yet
			time.Sleep(5 * time.Millisecond)
			continue
		}
		var a attempt
		if json.Unmarshal(partial, &a) == nil && a.End == "" && activities[a.Activity] && rng.Float64() < rate {
			time.Sleep(time.Duration(rng.Int64N(int64(maxDelay) + 1)))
			if err := p.killAndRestart(ctx, a.Worker); err != nil {
				return err
			}
		}
		partial = partial[:0]
	}
	return nil
}

// stopAll kills every worker: nothing of theirs may reach the fake after
// the phase.
func (p *pool) stopAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.procs {
		if w != nil {
			w.kill()
		}
	}
}

// killed returns the kills sent.
func (p *pool) killed() []kill {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]kill(nil), p.kills...)
}
