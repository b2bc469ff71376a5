package facade

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/limits"
)

// decisionSentinels are the sentinels of the facade, and limits' own: each
// a decision a caller makes.
var decisionSentinels = map[string]error{
	"ErrValidation": ErrValidation, "ErrUnauthorized": ErrUnauthorized, "ErrForbidden": ErrForbidden,
	"ErrNotFound": ErrNotFound, "ErrConflict": ErrConflict, "ErrRunUnderWay": ErrRunUnderWay, "ErrServer": ErrServer,
	"ErrMayHaveBeenApplied": ErrMayHaveBeenApplied, "ErrStartUnknown": ErrStartUnknown, "ErrFailed": ErrFailed,
	"ErrTimeout": ErrTimeout, "ErrMalformed": ErrMalformed, "limits.ErrLimit": limits.ErrLimit,
}

// errorTypes report whether an error holds each type of the table.
var errorTypes = map[string]func(error) bool{
	"*APIError":          func(err error) bool { return errors.As(err, new(*APIError)) },
	"*RequestError":      func(err error) bool { return errors.As(err, new(*RequestError)) },
	"*ValidationError":   func(err error) bool { return errors.As(err, new(*ValidationError)) },
	"*StateError":        func(err error) bool { return errors.As(err, new(*StateError)) },
	"*StartUnknownError": func(err error) bool { return errors.As(err, new(*StartUnknownError)) },
	"*MalformedError":    func(err error) bool { return errors.As(err, new(*MalformedError)) },
	"*limits.Error":      func(err error) bool { return errors.As(err, new(*limits.Error)) },
}

// errorCase is a real instance of a row of the package doc's table of
// errors: the row's sentinel and type ("-" for none), and the other
// sentinels the instance matches besides (a 500 of a state-changing call
// is ErrServer and ErrMayHaveBeenApplied).
type errorCase struct {
	sentinel, typ string
	also          []string
	make          func(t *testing.T) error
}

// errorCases has at least one instance of every row of the table.
func errorCases() map[string]errorCase {
	return map[string]errorCase{
		"a field refused before sending": {"ErrValidation", "*ValidationError", nil, func(t *testing.T) error {
			_, c := newFake(t)
			_, err := c.Scenarios.List(testCtx(t), -1)
			return err
		}},
		"a key over plain http": {"ErrValidation", "*ValidationError", nil, func(t *testing.T) error {
			_, err := New("http://scm.example.com/api/v1", WithAPIKey(testKey))
			return err
		}},
		"a resume token this client cannot read": {"ErrValidation", "*ValidationError", nil, func(t *testing.T) error {
			_, c := newFake(t)
			_, err := c.ResumeRunFromToken("scmrun.3.nonsense")
			return err
		}},
		"a Run from its rcId alone asked for its result": {"ErrValidation", "*ValidationError", nil, func(t *testing.T) error {
			_, c := newFake(t)
			_, err := c.Run(10101).ResultID()
			return err
		}},
		"400": {"ErrValidation", "*APIError", nil, statusOf(http.StatusBadRequest, `{"message":"bad"}`)},
		"401": {"ErrUnauthorized", "*APIError", nil, statusOf(http.StatusUnauthorized, `{"message":"who"}`)},
		"403": {"ErrForbidden", "*APIError", nil, statusOf(http.StatusForbidden, `{"message":"no"}`)},
		"500 Access is denied": {"ErrForbidden", "*APIError", nil,
			statusOf(http.StatusInternalServerError, `{"message":"Access is denied"}`)},
		"404": {"ErrNotFound", "*APIError", nil, statusOf(http.StatusNotFound, `{"message":"gone"}`)},
		"500 no such project": {"ErrNotFound", "*APIError", nil, func(t *testing.T) error {
			_, c := newFake(t)
			_, err := c.Scenarios.List(testCtx(t), 999)
			return err
		}},
		"409":                        {"ErrConflict", "*APIError", nil, statusOf(http.StatusConflict, `{"message":"busy"}`)},
		"nothing is selected":        {"ErrConflict", "-", nil, nothingSelected},
		"a start refused":            {"ErrRunUnderWay", "*APIError", nil, refusedStart},
		"Prepare reads a run":        {"ErrRunUnderWay", "-", nil, preparedUnderWay},
		"503 after retries":          {"ErrServer", "*APIError", nil, statusOf(http.StatusServiceUnavailable, `{"message":"later"}`)},
		"429 after retries":          {"ErrServer", "*APIError", nil, statusOf(http.StatusTooManyRequests, `{"message":"slow down"}`)},
		"a 2xx that does not decode": {"ErrMalformed", "*APIError", nil, statusOf(http.StatusOK, `[{"projectId": x}]`)},
		"an answer without a job id": {"ErrMalformed", "*MalformedError", nil, func(t *testing.T) error {
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"status":"QUEUED"}`) })
			_, err := c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeSIM, nil)
			return err
		}},
		"pages that cycle": {"ErrMalformed", "*MalformedError", nil, func(t *testing.T) error {
			rows := &rowsServer{pick: func(_ int32, skip, take int) []int64 { return pageOfRows(skip/take%2*100, take) }} // pages that alternate
			_, c := newStub(t, rows.serve)
			return pageAll(t, c, &PageOptions{PageSize: 2}).err
		}},
		"500 of a state-changing call": {"ErrMayHaveBeenApplied", "*APIError", []string{"ErrServer"},
			func(t *testing.T) error {
				_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
					http.Error(w, `{"message":"boom"}`, http.StatusInternalServerError)
				})
				_, err := c.Projects.Open(testCtx(t), 1)
				return err
			}},
		"a state-changing call cut after sending": {"ErrMayHaveBeenApplied", "*RequestError", nil, func(t *testing.T) error {
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				conn, _, err := http.NewResponseController(w).Hijack()
				require.NoError(t, err)
				require.NoError(t, conn.(*net.TCPConn).SetLinger(0))
				conn.Close()
			})
			_, err := c.Projects.Open(testCtx(t), 1)
			return err
		}},
		"a lost start that cannot be settled": {"ErrStartUnknown", "*StartUnknownError", nil, func(t *testing.T) error {
			_, c, _ := newVirtualFake(t, time.Minute)
			run := must(c.Experiments.Prepare(testCtx(t), 10305, nil))(t) // VARIATION: never listed
			_, err := c.Experiments.Began(testCtx(t), run, nil)
			return err
		}},
		"a lost import not settled by its name": {"ErrStartUnknown", "*StartUnknownError", nil, func(t *testing.T) error {
			_, c := newFake(t)
			_, err := c.Scenarios.SettleByName(testCtx(t), LostScenarioJob{Operation: "importExcel", Subject: "workbook a.xlsx", Project: 1, Name: "Simulation", Known: []ids.ScenarioID{103, 105}})
			return err
		}},
		"a run that failed": {"ErrFailed", "*StateError", nil, func(t *testing.T) error {
			_, c, _ := newVirtualFake(t, time.Minute)
			_, err := c.RunAndWait(testCtx(t), 10403, nil)
			return err
		}},
		"a job that did not start": {"ErrFailed", "*StateError", nil, func(t *testing.T) error {
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"error":"no sheet","jobId":null}`) })
			_, err := c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeSIM, nil)
			return err
		}},
		"MaxWait passed": {"ErrTimeout", "-", nil, func(t *testing.T) error {
			_, c, _ := newVirtualFake(t, time.Hour)
			run := must(c.Experiments.Start(testCtx(t), 10101, nil))(t)
			_, err := run.Wait(testCtx(t), &WaitOptions{MaxWait: time.Minute})
			return err
		}},
		"an attempt timed out": {"ErrTimeout", "*RequestError", nil, func(t *testing.T) error {
			stop := make(chan struct{}) // the handler holds the answer until the attempt gives up or the test ends
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-stop:
				}
			}, WithAttemptTimeout(20*time.Millisecond))
			t.Cleanup(func() { close(stop) }) // runs before the stub's server closes
			_, err := c.Projects.List(testCtx(t))
			return err
		}},
		"a connection refused": {"-", "*RequestError", nil, func(t *testing.T) error {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			addr := ln.Addr().String()
			require.NoError(t, ln.Close())
			_, err = newTestClient(t, "http://"+addr+"/api/v1").Projects.List(testCtx(t))
			return err
		}},
		"a download that broke off": {"-", "*RequestError", nil, brokenDownload},
		"more requests than a paging allows": {"limits.ErrLimit", "*limits.Error", nil, func(t *testing.T) error {
			rows := &rowsServer{pick: func(_ int32, skip, take int) []int64 { return pageOfRows(skip, take) }}
			_, c := newStub(t, rows.serve)
			return pageAll(t, c, &PageOptions{PageSize: 2, MaxRequests: 2}).err
		}},
	}
}

// statusOf is the error of a read answered with status and body.
func statusOf(status int, body string) func(t *testing.T) error {
	return func(t *testing.T) error {
		_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprint(w, body)
		})
		_, err := c.Projects.List(testCtx(t))
		return err
	}
}

// nothingSelected creates a variation from a table without a selection.
func nothingSelected(t *testing.T) error {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "false") })
	_, err := c.Variations.Create(testCtx(t), 10101, gen.ApiVariation{Object: &gen.ApiIdNameObject{Id: "7"}})
	return err
}

// refusedStart is a start the server refuses: a run is under way.
func refusedStart(t *testing.T) error {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"message":"rcId 10101: run 7 is already running"}`, http.StatusInternalServerError)
	})
	_, err := c.Experiments.RunSync(testCtx(t), 10101)
	return err
}

// preparedUnderWay prepares a start of a configuration whose run is under
// way.
func preparedUnderWay(t *testing.T) error {
	_, c := newFake(t, fake.WithRunDuration(time.Hour), fake.WithRunningMarked(), fake.WithStatusLag(0))
	must(c.Experiments.Start(testCtx(t), 10101, nil))(t)
	_, err := c.Experiments.Prepare(testCtx(t), 10101, nil)
	return err
}

// brokenDownload reads a page export whose body is cut off, from a server
// that takes no Range requests.
func brokenDownload(t *testing.T) error {
	srv, c, _ := newVirtualFake(t, time.Minute)
	result := must(c.Experiments.RunSync(testCtx(t), 10101))(t)
	pages := must(c.Dashboards.Pages(testCtx(t), result.ExperimentResultId))(t)
	srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultTruncate})
	d := must(c.Dashboards.ExportPage(testCtx(t), result.ExperimentResultId, pages[0].Id))(t)
	defer d.Close()
	_, err := d.WriteTo(&bytes.Buffer{})
	return err
}

// docRow is a row of the table of errors in doc.go: its sentinel and its
// types ("-" for none).
type docRow struct {
	sentinel string
	types    []string
}

// docErrorRows reads the table of the "# Errors" section of doc.go: the
// columns start where the header's names do, and a row's continuation
// lines leave the sentinel's column blank.
func docErrorRows(t *testing.T) []docRow {
	t.Helper()
	src, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	var rows []docRow
	typeCol, whenCol := -1, -1
	for sc := bufio.NewScanner(bytes.NewReader(src)); sc.Scan(); {
		line, ok := strings.CutPrefix(sc.Text(), "//\t")
		switch {
		case !ok:
			if typeCol >= 0 && len(rows) > 0 {
				return rows
			}
			continue
		case strings.HasPrefix(line, "Sentinel "):
			typeCol, whenCol = strings.Index(line, "Type"), strings.Index(line, "When")
			continue
		case typeCol < 0 || len(line) < whenCol:
			continue
		}
		sentinel, typ := strings.TrimSpace(line[:typeCol]), strings.TrimSpace(line[typeCol:whenCol])
		if sentinel != "" {
			rows = append(rows, docRow{sentinel: sentinel})
		}
		for _, ty := range strings.Fields(typ) {
			if ty != "or" {
				rows[len(rows)-1].types = append(rows[len(rows)-1].types, ty)
			}
		}
	}
	t.Fatal("doc.go has no table of errors")
	return nil
}

// The package doc's table of errors says, for each case, the sentinel and
// the type of its error: a real instance of every row matches exactly the
// row's sentinel (and the others its case lists), never
// ErrMayHaveBeenApplied unless listed, and holds exactly the row's type.
func TestErrorTableOfThePackageDoc(t *testing.T) {
	rows, cases := docErrorRows(t), errorCases()
	covered := map[string]bool{}
	for name, tc := range cases {
		row := slices.IndexFunc(rows, func(r docRow) bool { return r.sentinel == tc.sentinel && slices.Contains(r.types, tc.typ) })
		require.GreaterOrEqual(t, row, 0, "%s: the table has no row %s %s", name, tc.sentinel, tc.typ)
		covered[tc.sentinel+" "+tc.typ] = true
	}
	for _, r := range rows {
		for _, typ := range r.types {
			assert.True(t, covered[r.sentinel+" "+typ], "the row %s %s has no case", r.sentinel, typ)
		}
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := tc.make(t)
			require.Error(t, err)
			for s, sentinel := range decisionSentinels {
				want := s == tc.sentinel || slices.Contains(tc.also, s)
				assert.Equal(t, want, errors.Is(err, sentinel), "%s: errors.Is(err, %s): %v", name, s, err)
			}
			for typ, holds := range errorTypes {
				assert.Equal(t, typ == tc.typ, holds(err), "%s: errors.As(err, %s): %v", name, typ, err)
			}
			assert.NotErrorIs(t, err, context.DeadlineExceeded, "the case ran out of time")
		})
	}
}
