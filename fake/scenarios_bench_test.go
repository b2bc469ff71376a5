package fake_test

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
)

// benchCopies is the number of copies of the large world:
// SCM_BENCH_COPIES, 100,000 by default.
func benchCopies(b *testing.B) int {
	if v := os.Getenv("SCM_BENCH_COPIES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 100 {
			b.Fatalf("SCM_BENCH_COPIES=%q: want a count of at least 100", v)
		}
		return n
	}
	return 100_000
}

// copiesHandler is a fake whose project 1 holds n copies of scenario 101
// ("null" to "null n"), made by n copyScenarioSynchronously requests in
// process, and how long they took.
func copiesHandler(b *testing.B, n int) (http.Handler, time.Duration) {
	h := fake.NewHandler()
	start := time.Now()
	for range n {
		copyScenario(b, h)
	}
	return h, time.Since(start)
}

// BenchmarkCopyScenario times copyScenarioSynchronously on a project of 100
// copies and on one of 100,000, alternately in the same loop (each copy is
// deleted again, untimed, so the worlds keep their size), and reports their
// ratio (flat is 1.0) and how long the 100,000 copies that made the large
// world took. It also lists project 2 (one scenario) of both worlds: the
// copies in project 1 must not slow it.
func BenchmarkCopyScenario(b *testing.B) {
	n := benchCopies(b)
	small, _ := copiesHandler(b, 100)
	large, built := copiesHandler(b, n)
	var tSmall, tLarge, lSmall, lLarge time.Duration
	for b.Loop() {
		start := time.Now()
		a := copyScenario(b, small)
		mid := time.Now()
		c := copyScenario(b, large)
		tSmall, tLarge = tSmall+mid.Sub(start), tLarge+time.Since(mid)
		start = time.Now()
		serve(small, http.MethodGet, "/open/scenario/list?projectId=2")
		mid = time.Now()
		serve(large, http.MethodGet, "/open/scenario/list?projectId=2")
		lSmall, lLarge = lSmall+mid.Sub(start), lLarge+time.Since(mid)
		for h, id := range map[http.Handler]ids.ScenarioID{small: a, large: c} {
			if rec := serve(h, http.MethodDelete, fmt.Sprintf("/open/scenario?scenarioId=%d", id)); rec.Code != http.StatusOK {
				b.Fatalf("delete %d: status %d: %s", id, rec.Code, rec.Body)
			}
		}
	}
	count := float64(b.N)
	b.ReportMetric(float64(tSmall.Nanoseconds())/count, "ns/copy-100")
	b.ReportMetric(float64(tLarge.Nanoseconds())/count, fmt.Sprintf("ns/copy-%d", n))
	b.ReportMetric(float64(tLarge)/float64(tSmall), "x-copy-100")
	b.ReportMetric(built.Seconds(), fmt.Sprintf("s/%d-copies", n))
	b.ReportMetric(float64(lLarge)/float64(lSmall), "x-list-other-project")
}
