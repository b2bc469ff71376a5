package facade

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/gendecode"
)

// A list answer is split into its elements as it streams: whatever the
// white space, the strings holding brackets, quotes and commas, and the
// nesting, the list decodes to what decoding it whole gives.
func TestListStreamsToWhatWholeDecodingGives(t *testing.T) {
	for name, body := range map[string]string{
		"empty":       `[]`,
		"spaced":      " \n[ \t{\"id\":1,\"name\":\"a\",\"type\":\"SIM\"} ,\n{\"id\":2,\"name\":\"b\",\"type\":\"NO\"}\n] \n",
		"punctuation": `[{"id":3,"name":"x, ] } [ { \" \\ \u00e9","type":"GFA","extra":[[1,[2]],{"k":"]"}]}]`,
		"null name":   `[{"id":4,"name":null,"type":"SIM"}]`,
		"null":        `null`,
	} {
		t.Run(name, func(t *testing.T) {
			_, c := newStub(t, serveBody(body), WithClock(faketest.NewInstantClock()))
			got, err := c.Scenarios.List(testCtx(t), 1)
			require.NoError(t, err)
			var want []gen.ApiScenarioData
			require.NoError(t, gendecode.DecodeJSON([]byte(body), &want))
			assert.Equal(t, want, got)
		})
	}
}

// A list with a mistake fails where the mistake is, as a whole answer
// would; an answer that is not a list is decoded whole and reported.
func TestListMistakes(t *testing.T) {
	for body, want := range map[string]string{
		`[{"id":1,"name":"a","type":"SIM"}`:          "malformed JSON at byte 33: unexpected end of JSON input",
		`[{"id":1,"name":"a","type":"SIM"} x`:        `malformed JSON at byte 34: invalid character 'x' after array element`,
		`[{"id":1,"name":"a","type":"SIM"}] []`:      "malformed JSON at byte 35: invalid character '[' after top-level value",
		`[{"id":1,"name":"a","type":"SIM"},{"id"`:    "malformed JSON at byte 39: unexpected end of JSON input",
		`[{"id":1,"name":"a","type":"SIM"},{"id":}]`: "malformed JSON at byte 40",
	} {
		_, c := newStub(t, serveBody(body), WithClock(faketest.NewInstantClock()))
		_, err := c.Scenarios.List(testCtx(t), 1)
		require.Error(t, err, body)
		assert.Contains(t, err.Error(), want, body)
		assert.Contains(t, err.Error(), "getScenarios", body)
	}
	_, c := newStub(t, serveBody(`{"scenarios":[]}`), WithClock(faketest.NewInstantClock()))
	got, err := c.Scenarios.List(testCtx(t), 1)
	require.NoError(t, err, "an answer of another type does not fail the call")
	assert.Empty(t, got)
	require.NotEmpty(t, c.Drift())
	assert.Equal(t, "probe-type", c.Drift()[0].Kind)
}

// A list body cut off mid-way is retried like any other read, and the
// retried attempt's list starts over.
func TestListCutOffIsRetried(t *testing.T) {
	var calls atomic.Int32
	full := `[{"id":1,"name":"a","type":"SIM"},{"id":2,"name":"b","type":"SIM"}]`
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Content-Length", fmt.Sprint(len(full)))
			fmt.Fprint(w, full[:40]) // the connection ends before the body does
			return
		}
		fmt.Fprint(w, full)
	}, WithClock(faketest.NewInstantClock()))
	got, err := c.Scenarios.List(testCtx(t), 1)
	require.NoError(t, err)
	assert.Len(t, got, 2, "the elements of the cut attempt are not kept")
	assert.EqualValues(t, 2, calls.Load())
}

// longList is the body of a list of n scenarios.
func longList(n int) *bytes.Buffer {
	var body bytes.Buffer
	body.WriteByte('[')
	for i := range n {
		if i > 0 {
			body.WriteByte(',')
		}
		fmt.Fprintf(&body, `{"id":%d,"name":"Scenario %d: %s","type":"SIM"}`, i+1, i+1, strings.Repeat("demand +10% ", 10))
	}
	body.WriteByte(']')
	return &body
}

// BenchmarkLongListTime reads a list of 200,000 scenarios (33 MiB) as it
// streams, and reports its time per element and its ratio to reading the
// body whole and decoding it, in the same run.
func BenchmarkLongListTime(b *testing.B) {
	const n = 200_000
	_, c := newStub(b, serveBody(longList(n).String()), WithClock(faketest.NewInstantClock()))
	var streamed, whole time.Duration
	for range b.N {
		start := time.Now()
		list, err := c.Scenarios.List(b.Context(), 1)
		streamed += time.Since(start)
		require.NoError(b, err)
		require.Len(b, list, n)
		start = time.Now()
		resp, err := c.Raw().GetScenarios(b.Context(), &gen.GetScenariosParams{ProjectId: 1})
		require.NoError(b, err)
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(b, err)
		require.NoError(b, gendecode.DecodeJSON(data, &list))
		whole += time.Since(start)
	}
	b.ReportMetric(float64(streamed.Nanoseconds())/float64(b.N*n), "streamed-ns/elem")
	b.ReportMetric(float64(streamed)/float64(whole), "time-x-whole-body")
}

// BenchmarkLongList reads a list of many scenarios and reports the peak of
// the heap in use above the start (with the collector run often, so that it
// follows what is live), over the size of the body and over the heap the
// decoded list holds once read, and against the baseline of reading the
// body whole and decoding it, in the same run.
func BenchmarkLongList(b *testing.B) {
	const n = 200_000
	body := longList(n)
	_, c := newStub(b, serveBody(body.String()), WithClock(faketest.NewInstantClock()))
	whole := func() ([]gen.ApiScenarioData, error) {
		resp, err := c.Raw().GetScenarios(b.Context(), &gen.GetScenariosParams{ProjectId: 1})
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, err
		}
		var list []gen.ApiScenarioData
		err = gendecode.DecodeJSON(data, &list)
		return list, err
	}
	streamed := func() ([]gen.ApiScenarioData, error) { return c.Scenarios.List(b.Context(), 1) }
	defer debug.SetGCPercent(debug.SetGCPercent(5)) // the heap in use then follows what is live
	var peak, wholePeak, held float64
	for range b.N {
		p, h := peakOf(b, streamed, n)
		wp, _ := peakOf(b, whole, n)
		peak, wholePeak, held = peak+p, wholePeak+wp, held+h
	}
	b.ReportMetric(peak/float64(b.N)/float64(body.Len()), "peak/body")
	b.ReportMetric(peak/held, "peak/decoded")
	b.ReportMetric(peak/wholePeak, "x-whole-body")
	b.ReportMetric(float64(body.Len())/(1<<20), "body-MiB")
}

// peakOf runs read, which must read n items, and returns the peak of the
// heap in use above the start while it ran, and what the list it read
// holds.
func peakOf(b *testing.B, read func() ([]gen.ApiScenarioData, error), n int) (peak, held float64) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop := sampleHeap(before.HeapInuse)
	list, err := read()
	p := stop()
	if err != nil || len(list) != n {
		b.Fatalf("%d items, %v", len(list), err)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(list)
	return float64(p), float64(after.HeapInuse) - float64(before.HeapInuse)
}

// sampleHeap samples the heap in use above base every millisecond until the
// returned function is called, which returns the peak.
func sampleHeap(base uint64) func() uint64 {
	done, result := make(chan struct{}), make(chan uint64)
	go func() {
		var peak uint64
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > base && m.HeapInuse-base > peak {
				peak = m.HeapInuse - base
			}
			select {
			case <-done:
				result <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 { close(done); return <-result }
}
