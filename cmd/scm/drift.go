package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/scmodel/scmgo/internal/logmsg"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/internal/atomicfile"
)

// driftLog is what the command's clients saw of answers that differ from
// the spec: the clients, to ask for their findings when the command ends.
type driftLog struct {
	mu      sync.Mutex
	clients []*facade.Client
}

func (d *driftLog) add(c *facade.Client) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.clients = append(d.clients, c)
}

// findings are the differences every client saw, each once.
func (d *driftLog) findings() []drift.Finding {
	d.mu.Lock()
	defer d.mu.Unlock()
	var all []drift.Finding
	for _, c := range d.clients {
		all = append(all, c.Drift()...)
	}
	slices.SortFunc(all, drift.Compare)
	return slices.CompactFunc(all, func(a, b drift.Finding) bool { return drift.Compare(a, b) == 0 })
}

// reportDrift ends a command that met answers differing from the spec with
// one line on standard error, and writes them as JSON to --drift-report.
func (a *app) reportDrift() {
	found := a.drift.findings()
	if a.driftReport != "" {
		if err := writeDriftReport(a.driftReport, found); err != nil {
			fmt.Fprintf(a.stderr, "scm: --drift-report: %v\n", err)
			return
		}
	}
	switch {
	case len(found) == 0:
	case a.driftReport != "":
		fmt.Fprintf(a.stderr, "scm: the server's answers differed from the spec in %s; written to %s\n", places(len(found)), a.driftReport)
	default:
		fmt.Fprintf(a.stderr, "scm: the server's answers differed from the spec in %s; --drift-report FILE writes them as JSON (specdiff overlay turns them into a spec fix)\n", places(len(found)))
	}
}

func places(n int) string {
	if n == 1 {
		return "1 place"
	}
	return fmt.Sprintf("%d places", n)
}

// writeDriftReport writes the findings as a JSON array, the form specdiff
// overlay reads; an empty report is an empty array.
func writeDriftReport(path string, found []drift.Finding) error {
	if found == nil {
		found = []drift.Finding{}
	}
	b, err := json.MarshalIndent(found, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(path, append(b, '\n'), nil)
}

// driftQuiet is a log handler that leaves out the facade's line per
// difference from the spec: the command ends with a line that counts them.
type driftQuiet struct{ slog.Handler }

func (h driftQuiet) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == logmsg.Drift {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h driftQuiet) WithAttrs(attrs []slog.Attr) slog.Handler {
	return driftQuiet{h.Handler.WithAttrs(attrs)}
}

func (h driftQuiet) WithGroup(name string) slog.Handler { return driftQuiet{h.Handler.WithGroup(name)} }
