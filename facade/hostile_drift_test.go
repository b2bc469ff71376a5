package facade

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scmodel/scmgo/internal/textcut"

	"github.com/scmodel/scmgo/internal/logmsg"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
)

// A hostile server's answers seen through the facade: differences past
// Limits.MaxDriftFindings, names of megabytes, property lists of
// thousands, an answer cancelled while it decodes. Each case bounds the
// memory and the time, and names the limit.

// userWithFields is an answer of getCurrentUser with n unknown fields
// named after prefix.
func userWithFields(prefix string, n int) string {
	var b strings.Builder
	b.WriteString(`{"id":1,"username":"u","email":"e","firstName":"f","lastName":"l"`)
	for i := range n {
		b.WriteString(`,"` + prefix + strconv.Itoa(i) + `":1`)
	}
	b.WriteString("}")
	return b.String()
}

// retained is the heap in use after a collection.
func retained() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// 150,000 distinct unknown fields in three answers: the client keeps and
// logs Limits.MaxDriftFindings of them, counts the rest, and says so once;
// what it holds afterwards is a small part of what it read.
func TestHostileDriftFindingsAreBounded(t *testing.T) {
	var n atomic.Int32
	c, log := driftServer(t, func(*http.Request) string {
		return userWithFields("f"+strconv.Itoa(int(n.Add(1)))+"_", 50_000)
	}, nil)
	before := retained()
	start := time.Now()
	for range 3 {
		_, err := c.User.Current(driftContext(t))
		require.NoError(t, err)
	}
	took := time.Since(start)
	held := int64(retained()) - int64(before)
	assert.Len(t, c.Drift(), DefaultLimits().MaxDriftFindings)
	assert.Equal(t, 150_000-DefaultLimits().MaxDriftFindings, c.DriftDropped())
	lines := log.Lines()
	assert.Len(t, lines, DefaultLimits().MaxDriftFindings+1, "a Warn line per finding kept, and one for the limit")
	assert.Equal(t, 1, strings.Count(log.String(), logmsg.DriftLimit), "the limit is said once")
	assert.Contains(t, log.String(), "limit=Limits.MaxDriftFindings max=1000")
	assert.Less(t, len(log.String()), 400*DefaultLimits().MaxDriftFindings, "the log is bounded")
	assert.Less(t, held, int64(8<<20), "the client holds %d bytes after 150,000 differences", held)
	t.Logf("3 answers of 50,000 unknown fields in %v; %d bytes held", took, held)
}

// A limit set with WithLimits is the one enforced.
func TestDriftFindingsFollowWithLimits(t *testing.T) {
	log := &faketest.Buffer{}
	_, c := newStub(t, serveBody(userWithFields("g", 10)), WithClock(faketest.NewInstantClock()),
		WithLimits(Limits{MaxDriftFindings: 3}), WithLogger(slog.New(slog.NewTextHandler(log, nil))))
	_, err := c.User.Current(testCtx(t))
	require.NoError(t, err)
	assert.Len(t, c.Drift(), 3)
	assert.Equal(t, 7, c.DriftDropped())
	assert.Contains(t, log.String(), "max=3")
	_, err = New("http://127.0.0.1/api/v1", WithLimits(Limits{MaxDriftFindings: -1}))
	assert.ErrorContains(t, err, "MaxDriftFindings must not be negative")
}

// A field name of 10 MB is kept whole in the answer, and cut to
// Limits.MaxReportedLen in its finding and its Warn line.
func TestHostileHugeNameIsCutInFindingAndLog(t *testing.T) {
	name := strings.Repeat("n", 10<<20)
	c, log := driftServer(t, func(*http.Request) string {
		return userWithFields("", 0)[:len(userWithFields("", 0))-1] + `,"` + name + `":1}`
	}, nil)
	u, err := c.User.Current(driftContext(t))
	require.NoError(t, err)
	assert.True(t, u.AdditionalProperties.Has(name), "the unknown field %.20s… is kept", name)
	require.Len(t, c.Drift(), 1)
	f := c.Drift()[0]
	max := DefaultLimits().MaxReportedLen
	assert.LessOrEqual(t, len(f.Path), len("ApiUserData.")+max+len("…(+10485504 bytes)"), f.Path[:40])
	assert.LessOrEqual(t, len(f.Detail), 2*len(f.Path)+64)
	assert.LessOrEqual(t, len(f.Property), max+len("…(+10485504 bytes)"))
	assert.Less(t, len(log.String()), 4*max+400, "the Warn line is bounded")
	assert.Contains(t, log.String(), "…(+10485504 bytes)", "the cut is marked")
}

// A page answer without its items and with 20,000 other properties (one of
// them 10 KB long) fails with a *MalformedError that lists
// Limits.MaxListedFields of them, each cut to Limits.MaxReportedLen, and
// counts the rest.
func TestHostileMissingFieldListIsBounded(t *testing.T) {
	var b strings.Builder
	long := strings.Repeat("a", 10<<10)
	b.WriteString(`{"` + long + `":1`)
	for i := range 20_000 {
		b.WriteString(`,"p` + strconv.Itoa(i) + `":1`)
	}
	b.WriteString("}")
	for limits, want := range map[Limits][2]int{{}: {32, 256}, {MaxListedFields: 5, MaxReportedLen: 20}: {5, 20}} {
		_, c := newStub(t, serveBody(b.String()), WithClock(faketest.NewInstantClock()), WithLimits(limits))
		var err error
		for _, err = range c.Results.ChartTableRows(testCtx(t), 1, 2, nil) {
			break
		}
		var missing *MalformedError
		require.ErrorAs(t, err, &missing)
		assert.Len(t, missing.Has, want[0])
		assert.Equal(t, 20_001-want[0], missing.More)
		assert.Equal(t, textcut.Cut(long, want[1]), missing.Has[0], "a long name is cut and marked")
		assert.Contains(t, missing.Has[0], "…(+")
		assert.Less(t, len(err.Error()), want[0]*(want[1]+24)+300, "the message is bounded")
		assert.Contains(t, err.Error(), strconv.Itoa(missing.More)+" more (Limits.MaxListedFields)")
	}
}

// cancelOnDrift is a log handler that cancels when the first drift Warn
// line is written: the first batch of a long list has decoded.
type cancelOnDrift struct {
	slog.Handler
	cancel context.CancelFunc
}

func (h cancelOnDrift) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == logmsg.Drift {
		h.cancel()
	}
	return nil
}

// A list of 200,000 scenarios (25 MB) whose context is cancelled once its
// first batch has decoded stops there, with the context's error, without
// decoding the rest.
func TestHostileLongListIsCancelled(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 200_000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"id":` + strconv.Itoa(i+1) + `,"name":"Scenario ` + strings.Repeat("x", 80) + `","type":"SIM","zz":1}`)
	}
	b.WriteString("]")
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	handler := cancelOnDrift{Handler: slog.NewTextHandler(&faketest.Buffer{}, nil), cancel: cancel}
	srv, c := newStub(t, serveBody(b.String()), WithClock(faketest.NewInstantClock()), WithLogger(slog.New(handler)))
	before := retained()
	list, err := c.Scenarios.List(ctx, 1)
	srv.CloseClientConnections() // the server's copy of the body is garbage once its write ends
	srv.Close()
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
	assert.Less(t, len(list), 10_000, "the list stops after its first batch")
	assert.Less(t, int64(retained())-int64(before), int64(8<<20), "nothing of the list is held")
}
