package faketest_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestInstantClockAdvancesOnEveryWait(t *testing.T) {
	clk := faketest.NewInstantClock()
	require.Equal(t, faketest.Epoch, clk.Now())
	for _, step := range []struct {
		wait time.Duration
		want time.Time
	}{
		{5 * time.Second, faketest.Epoch.Add(5 * time.Second)},
		{0, faketest.Epoch.Add(5 * time.Second)},
		{-time.Hour, faketest.Epoch.Add(5 * time.Second)},
		{time.Minute, faketest.Epoch.Add(65 * time.Second)},
	} {
		select {
		case at := <-clk.After(step.wait):
			assert.Equal(t, step.want, at, "the time After(%v) fires with", step.wait)
		default:
			t.Fatalf("After(%v) did not fire at once", step.wait)
		}
		assert.Equal(t, step.want, clk.Now(), "the time after waiting %v", step.wait)
	}
	assert.Zero(t, clk.Waiters(), "an instant clock leaves no wait pending")
}

// An instant clock's timers never fire, however far its waits move it:
// they stay pending until stopped, and Reset keeps them so. (Its After
// moves the clock; a timer that fired then would time out the work it
// races, which takes no time on this clock.)
func TestInstantClockTimersNeverFire(t *testing.T) {
	clk := faketest.NewInstantClock()
	fired := make(chan struct{}, 1)
	timer := clk.AfterFunc(time.Minute, func() { fired <- struct{}{} })
	<-clk.After(time.Hour)
	clk.Advance(time.Hour)
	assert.True(t, timer.Stop(), "the timer is pending two hours past its time")
	assert.False(t, timer.Stop(), "a stopped timer is not pending")
	assert.False(t, timer.Reset(time.Second), "Reset of a stopped timer")
	<-clk.After(time.Minute)
	assert.True(t, timer.Reset(time.Second), "a reset timer is pending past its time")
	select {
	case <-fired:
		t.Fatal("a timer of the instant clock fired")
	default:
	}
}

// An instant clock made from a virtual clock starts where that clock is.
// A wait past the horizon panics at once, saying so, instead of letting a
// poll for a state never recognized spin until the test's real deadline;
// a clock made from a virtual clock has no horizon.
func TestInstantClockHorizon(t *testing.T) {
	clk := faketest.NewInstantClock()
	<-clk.After(faketest.Horizon - time.Second)
	assert.PanicsWithValue(t, "faketest: a wait of 2s takes the instant clock past 24h0m0s of virtual time: "+
		"the code under test is waiting for something that never comes", func() { clk.After(2 * time.Second) })
	assert.Equal(t, faketest.Epoch.Add(faketest.Horizon-time.Second), clk.Now(), "the wait past the horizon did not move the clock")

	open := faketest.InstantClock{Virtual: clock.NewVirtual(faketest.Epoch)}
	assert.NotPanics(t, func() { <-open.After(10 * faketest.Horizon) })
}

func TestInstantClockFromAVirtualClock(t *testing.T) {
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	clk := faketest.InstantClock{Virtual: clock.NewVirtual(start)}
	assert.Equal(t, start.Add(time.Second), <-clk.After(time.Second))
}

// client connects to srv with the key srv accepts, on clk when given.
func client(t *testing.T, srv *fake.Server, opts ...facade.Option) *facade.Client {
	t.Helper()
	c, err := facade.New(srv.URL, append([]facade.Option{facade.WithAPIKey(srv.APIKey)}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// A run of an hour ends as soon as a client on the same clock waits for
// it: the client's poll waits move the server's clock. Starting a run
// needs a license, which the server gives.
func TestInstantServerRunsOnTheClientsWaits(t *testing.T) {
	srv, clk := faketest.NewInstantServer(t, fake.WithRunDuration(time.Hour))
	c := client(t, srv, facade.WithClock(clk))
	run, err := c.RunAndWait(testCtx(t), 10101, nil)
	require.NoError(t, err)
	assert.Equal(t, facade.RunFinished, facade.RunStateValue(run.State()))
	assert.GreaterOrEqual(t, clk.Now().Sub(faketest.Epoch), time.Hour, "virtual time the waits took")
}

// The server's synchronous run waits on the server's clock, which moves
// at once.
func TestInstantServerRunsSynchronouslyAtOnce(t *testing.T) {
	srv, clk := faketest.NewInstantServer(t, fake.WithRunDuration(time.Hour))
	res, err := client(t, srv).Experiments.RunSync(testCtx(t), 10101)
	require.NoError(t, err)
	assert.NotZero(t, res)
	assert.Equal(t, faketest.Epoch.Add(time.Hour), clk.Now())
}

// NewServer runs on the real clock: an hour's run is still under way. Its
// options apply after the license, and it is closed when the test ends.
func TestNewServerIsClosedWhenTheTestEnds(t *testing.T) {
	var url string
	t.Run("server", func(t *testing.T) {
		srv := faketest.NewServer(t, fake.WithAPIKeys("sk-own-key"), fake.WithRunDuration(time.Hour), fake.WithStatusLag(0))
		url = srv.URL
		c := client(t, srv, facade.WithAPIKey("sk-own-key"))
		_, err := c.Experiments.Start(testCtx(t), 10101, nil)
		require.NoError(t, err, "licensed, with the key given")
		state, err := c.Experiments.Status(testCtx(t), 10101)
		require.NoError(t, err)
		assert.False(t, *state.Finished, "under way")
	})
	req, err := http.NewRequestWithContext(testCtx(t), http.MethodGet, url+"/user/current", nil)
	require.NoError(t, err)
	resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
	if err == nil {
		resp.Body.Close()
	}
	assert.Error(t, err, "the server still answers after its test ended")
}

// A fake on an instant clock for an example, which has no test to close
// it: a run of an hour, waited for at once.
func ExampleStartInstantServer() {
	srv, clk := faketest.StartInstantServer(fake.WithRunDuration(time.Hour))
	defer srv.Close()
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	run, err := c.RunAndWait(ctx, 10101, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(facade.RunStateValue(run.State()), clk.Now().Sub(faketest.Epoch) >= time.Hour)
	// Output: FINISHED true
}

func TestBufferTakesConcurrentWrites(t *testing.T) {
	var b faketest.Buffer
	assert.Equal(t, []string{""}, b.Lines())
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 100 {
				fmt.Fprintln(&b, "line")
			}
		}()
	}
	for range 4 {
		<-done
	}
	assert.Len(t, b.Lines(), 400)
	assert.Equal(t, strings.Repeat("line\n", 400), b.String())
}
