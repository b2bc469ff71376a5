package facade

import (
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/limits"
)

// limitTests holds, for every field of Limits, a test that shows the limit
// refusing (or cutting, or dropping) one byte or one unit more than it
// allows, against a hostile server. TestEveryLimitIsTested fails when a
// field has no entry.
var limitTests = map[string]func(t *testing.T){
	"MaxBodyBytes":     testMaxBodyBytes,
	"MaxDriftFindings": testMaxDriftFindings,
	"MaxReportedLen":   testMaxReportedLen,
	"MaxListedFields":  testMaxListedFields,
	"MaxUnknownStates": testMaxUnknownStates,
}

// A field of Limits without a test in limitTests fails: a limit no test
// shows enforced does not exist.
func TestEveryLimitIsTested(t *testing.T) {
	fields := reflect.TypeFor[Limits]()
	require.Positive(t, fields.NumField())
	for i := range fields.NumField() {
		name := fields.Field(i).Name
		assert.Contains(t, limitTests, name, "Limits.%s has no entry in limitTests", name)
	}
	assert.Len(t, limitTests, fields.NumField(), "limitTests names a field Limits no longer has")
}

func TestLimits(t *testing.T) {
	for name, test := range limitTests {
		t.Run(name, test)
	}
}

// padded is prefix followed by spaces up to n bytes: JSON of exactly n bytes.
func padded(prefix string, n int) string {
	return prefix + strings.Repeat(" ", n-len(prefix))
}

// bodyLimitCases are the paths of a successful answer's body: each reads
// the body the server answers and returns the error of reading it.
var bodyLimitCases = map[string]struct {
	op   string // the operation the error names
	body string // a valid answer, padded to the limit
	read func(t *testing.T, c *Client) error
}{
	"decoded whole": {op: "getCurrentUser", body: userWithFields("", 0), read: func(t *testing.T, c *Client) error {
		_, err := c.User.Current(testCtx(t))
		return err
	}},
	"streamed list": {op: "getExperiments", body: `[{"id":1}]`, read: func(t *testing.T, c *Client) error {
		_, err := c.Experiments.List(testCtx(t), 1, 2)
		return err
	}},
	"page": {op: "getExperimentRunResultChartTableData", body: `{"entityList":[],"totalEntityCount":0}`, read: func(t *testing.T, c *Client) error {
		for _, err := range c.Results.ChartTableRows(testCtx(t), 1, 2, nil) {
			return err
		}
		return nil
	}},
	"Call": {op: "getCurrentUser", body: userWithFields("", 0), read: func(t *testing.T, c *Client) error {
		resp, err := c.Call(testCtx(t), "getCurrentUser", RawRequest{})
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, err = io.ReadAll(resp.Body)
		return err
	}},
	"Download.ReadAll": {op: "exportDashboardPage", body: "PK", read: func(t *testing.T, c *Client) error {
		d, err := c.Dashboards.ExportPage(testCtx(t), 1, 2)
		if err != nil {
			return err
		}
		_, err = d.ReadAll(nil)
		return err
	}},
}

// Each path of a successful answer reads a body of MaxBodyBytes, and
// refuses one of a byte more with a *limits.Error naming the operation and
// the limit; the server is asked once: a body too large is not fetched
// again.
func testMaxBodyBytes(t *testing.T) {
	const max = 4 << 10
	for name, tc := range bodyLimitCases {
		t.Run(name, func(t *testing.T) {
			for size, refused := range map[int]bool{max: false, max + 1: true} {
				var requests atomic.Int32
				_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
					requests.Add(1)
					_, _ = io.WriteString(w, padded(tc.body, size))
				}, WithLimits(Limits{MaxBodyBytes: max}), WithClock(faketest.NewInstantClock()))
				err := tc.read(t, c)
				if !refused {
					require.NoError(t, err, "a body of exactly MaxBodyBytes")
					continue
				}
				var limitErr *limits.Error
				require.ErrorAs(t, err, &limitErr, "a body of MaxBodyBytes+1")
				assert.ErrorIs(t, err, limits.ErrLimit)
				assert.Equal(t, limits.Error{Package: "facade", Operation: tc.op, Limit: "Limits.MaxBodyBytes", Max: max, Unit: "bytes", What: "the answer's body"}, *limitErr)
				assert.Contains(t, err.Error(), "facade: "+tc.op+": the answer's body exceeds facade's Limits.MaxBodyBytes (4096 bytes): raise it")
				assert.Equal(t, int32(1), requests.Load(), "a body over the limit is not fetched again")
			}
		})
	}
}

// A 5.7 MB answer with MaxBodyBytes at 64 KiB is refused having read
// little more than the limit.
func TestHostileBodyOverMaxBodyBytesIsNotRead(t *testing.T) {
	huge := []byte(padded(userWithFields("", 0), 5_700_000))
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(huge) },
		WithLimits(Limits{MaxBodyBytes: 64 << 10}))
	var err error
	alloc := allocated(func() { _, err = c.User.Current(testCtx(t)) })
	assert.ErrorIs(t, err, limits.ErrLimit)
	assert.Less(t, alloc, uint64(1<<20), "bytes allocated reading a 5.7 MB answer")
}

// An answer of MaxDriftFindings unknown fields keeps them all; one more is
// counted, not kept.
func testMaxDriftFindings(t *testing.T) {
	for fields, dropped := range map[int]int{3: 0, 4: 1} {
		_, c := newStub(t, serveBody(userWithFields("g", fields)), WithLimits(Limits{MaxDriftFindings: 3}))
		_, err := c.User.Current(testCtx(t))
		require.NoError(t, err)
		assert.Len(t, c.Drift(), 3)
		assert.Equal(t, dropped, c.DriftDropped(), "findings past Limits.MaxDriftFindings are counted")
	}
}

// A name of MaxReportedLen bytes is quoted whole in a finding, and a
// server's message so long in an *APIError's text; one a byte longer is
// cut and marked.
func testMaxReportedLen(t *testing.T) {
	const max = 20
	for size, want := range map[int]string{max: strings.Repeat("n", max), max + 1: strings.Repeat("n", max) + "…(+1 bytes)"} {
		body := strings.TrimSuffix(userWithFields("", 0), "}") + `,"` + strings.Repeat("n", size) + `":1}`
		_, c := newStub(t, serveBody(body), WithLimits(Limits{MaxReportedLen: max}))
		_, err := c.User.Current(testCtx(t))
		require.NoError(t, err)
		require.Len(t, c.Drift(), 1)
		assert.Equal(t, want, c.Drift()[0].Property)

		_, c = newStub(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"message":%q}`, strings.Repeat("n", size))
		}, WithLimits(Limits{MaxReportedLen: max}))
		_, err = c.User.Current(testCtx(t))
		assert.ErrorContains(t, err, ": "+want+" (400 Bad Request")
	}
}

// A page without its items names MaxListedFields of the properties it has;
// one more is counted.
func testMaxListedFields(t *testing.T) {
	const max = 5
	for fields, more := range map[int]int{max: 0, max + 1: 1} {
		var names []string
		for i := range fields {
			names = append(names, `"p`+strconv.Itoa(i)+`":1`)
		}
		_, c := newStub(t, serveBody("{"+strings.Join(names, ",")+"}"), WithLimits(Limits{MaxListedFields: max}))
		var err error
		for _, err = range c.Results.ChartTableRows(testCtx(t), 1, 2, nil) {
			break
		}
		var missing *MalformedError
		require.ErrorAs(t, err, &missing)
		assert.Len(t, missing.Has, max)
		assert.Equal(t, more, missing.More, "names past Limits.MaxListedFields are counted")
	}
}

// A negative limit is refused at construction, naming the field.
func TestNegativeLimitIsRefused(t *testing.T) {
	for i := range reflect.TypeFor[Limits]().NumField() {
		var l Limits
		field := reflect.ValueOf(&l).Elem().Field(i)
		field.SetInt(-1)
		_, err := New("http://127.0.0.1/api/v1", WithLimits(l))
		assert.ErrorContains(t, err, fmt.Sprintf("%s must not be negative", reflect.TypeFor[Limits]().Field(i).Name))
	}
}
