package doctor_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/doctor"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// instant starts a fake on an instant clock and a client of it on the
// same clock.
func instant(t *testing.T, opts ...fake.Option) (*fake.Server, faketest.InstantClock, *facade.Client) {
	t.Helper()
	srv, clk := faketest.NewInstantServer(t, opts...)
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
	require.NoError(t, err)
	return srv, clk, c
}

// diagnose runs the doctor within 10 seconds.
func diagnose(t *testing.T, c *facade.Client, opts doctor.Options) doctor.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	rep := doctor.Run(ctx, c, opts)
	require.NoError(t, ctx.Err(), "the doctor did not end within 10 s")
	return rep
}

// outline is the report's checks as "name status" lines.
func outline(rep doctor.Report) string {
	var lines []string
	for _, c := range rep.Checks {
		lines = append(lines, c.Name+" "+string(c.Status))
	}
	return strings.Join(lines, "\n")
}

// stateChanging counts the requests of operations the spec marks as
// changing state, by operation, from a server's counter.
func stateChanging(calls func(string) int) map[string]int {
	sent := map[string]int{}
	for _, op := range gen.Operations() {
		if n := calls(op.ID); op.ChangesState && n > 0 {
			sent[op.ID] = n
		}
	}
	return sent
}

// text is the report as its table, to search.
func text(t *testing.T, rep doctor.Report) string {
	t.Helper()
	var b strings.Builder
	require.NoError(t, rep.Write(&b, doctor.Table))
	return b.String()
}
