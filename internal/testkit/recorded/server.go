// Package recorded serves what a real server was recorded answering, for
// tests of the SDK against answers the fake did not write.
//
// The answers (answers/, one file per operation; see its README) are the
// models and values a real client printed. Around them the server keeps
// the relations the recordings show between a run and its ids, so that a
// client can start a run, wait for it and find its result:
//   - every run of a running configuration gets a new experimentResultId;
//     once it has finished, getExperimentRunsForScenario lists it with that
//     id as rcId, its own id one less, named Statistics N, unless the
//     configuration is a VARIATION one, whose runs are never listed;
//   - the first getExperimentStatus read after runExperiment shows the last
//     run's end (finished true), the next one the run under way, and the
//     ones after that its end;
//   - the first dashboard page of a result has the id experimentResultId+2,
//     and its charts' ids follow it; exporting a page of a VARIATION result
//     answers "Dashboard is empty", and of an rcId taken for a result the
//     Java text for a null run.
//
// Every error is a 500 with {message, details} behind the headers of the
// nginx in front of the real server.
package recorded

import (
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

//go:embed answers/*.json
var answers embed.FS

// Server is a test server that answers as recorded. Its methods are safe
// for concurrent use.
type Server struct {
	URL string // the base URL, ending in /api/v1

	t       testing.TB
	mu      sync.Mutex
	queries map[gen.OperationID][]string
	forms   map[gen.OperationID][]map[string][]string
	bodies  map[gen.OperationID][]string
	headers []http.Header

	configs  map[ids.RcID]config // the running configurations of getExperiments, by rcId
	reads    map[ids.RcID]int    // status reads since the last start, by rcId
	listed   []gen.ApiBasicRun
	results  map[ids.ExperimentResultID]gen.ExperimentType // experimentResultId → type
	nextID   ids.ExperimentResultID
	scenario map[ids.ScenarioID]int // scenario → runs it has named (Statistics N)
	pending  []pendingRun           // runs started and not finished
	unseen   bool                   // runs end without a read showing them under way
}

// RunsEndUnseen makes every run end without a status read showing it
// under way: the first read after a start still shows the last run's end,
// the next one the run's own end, which only the runs list tells apart.
func (s *Server) RunsEndUnseen() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unseen = true
}

// pendingRun is a run under way, listed once it finishes.
type pendingRun struct {
	rcID ids.RcID
	run  gen.ApiBasicRun
}

type config struct {
	id         ids.RcID
	scenarioID ids.ScenarioID
	typ        gen.ExperimentType
	started    bool
}

// NewServer starts a server that answers as recorded; it closes with the
// test.
func NewServer(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t, queries: map[gen.OperationID][]string{}, forms: map[gen.OperationID][]map[string][]string{},
		bodies: map[gen.OperationID][]string{}, configs: map[ids.RcID]config{}, reads: map[ids.RcID]int{},
		results: map[ids.ExperimentResultID]gen.ExperimentType{}, nextID: 90100, scenario: map[ids.ScenarioID]int{}}
	s.load()
	mux := http.NewServeMux()
	mux.Handle("/api/v1/", http.StripPrefix("/api/v1", s))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	s.URL = srv.URL + "/api/v1"
	return s
}

// load reads the running configurations and the runs listed before any
// start.
func (s *Server) load() {
	var rcs []gen.ApiBasicRunConfiguration
	s.decode("getExperiments.json", &rcs)
	for _, rc := range rcs {
		s.configs[rc.Id] = config{id: rc.Id, scenarioID: rc.ScenarioId, typ: rc.Type}
	}
	s.decode("getExperimentRunsForScenario.json", &s.listed)
	for _, r := range s.listed {
		s.results[r.RcId] = r.Type
		s.scenario[r.ScenarioId]++
	}
}

func (s *Server) decode(name string, v any) {
	b, err := answers.ReadFile(path.Join("answers", name))
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		s.t.Fatalf("recorded: %s: %v", name, err)
	}
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	op, ok := OperationAt(r.Method, r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	s.record(op, r)
	q := r.URL.Query()
	id := func(name string) int64 { v, _ := strconv.ParseInt(q.Get(name), 10, 64); return v }
	rcID := ids.RcID(id("rcId"))
	switch op {
	case gen.OpRunExperiment:
		s.json(w, s.start(rcID, false))
	case gen.OpRunExperimentSynchronously:
		s.json(w, s.start(rcID, true))
	case gen.OpGetExperimentStatus:
		s.json(w, s.status(rcID))
	case gen.OpGetExperimentRunsForScenario:
		s.json(w, s.runs(ids.ScenarioID(id("scenarioId"))))
	case gen.OpGetExperimentRunConfiguration:
		s.json(w, s.configuration(rcID))
	case gen.OpGetExperimentDashboardPages:
		s.json(w, dashboardPages(ids.ExperimentResultID(id("experimentResultId"))))
	case gen.OpExportDashboardPage:
		s.exportPage(w, r.URL.RawQuery, ids.ExperimentResultID(id("experimentResultId")), ids.PageID(id("pageId")))
	default:
		s.answer(w, op, r.URL.RawQuery)
	}
}

// OperationAt finds the operation of a method and a path below /api/v1.
func OperationAt(method, path string) (gen.OperationID, bool) {
	for _, op := range gen.Operations() {
		if op.Method == method && op.Path == path {
			return gen.OperationID(op.ID), true
		}
	}
	return "", false
}

func (s *Server) record(op gen.OperationID, r *http.Request) {
	var form map[string][]string
	var body string
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") && r.ParseMultipartForm(1<<20) == nil {
		form = r.MultipartForm.Value
		for name, files := range r.MultipartForm.File {
			for _, f := range files {
				form[name] = append(form[name], f.Filename)
			}
		}
	} else if b, err := io.ReadAll(r.Body); err == nil {
		body = string(b)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queries[op] = append(s.queries[op], r.URL.RawQuery)
	s.forms[op] = append(s.forms[op], form)
	s.bodies[op] = append(s.bodies[op], body)
	s.headers = append(s.headers, r.Header.Clone())
}

// answer answers from the files: one for a query term of this request
// first, then the operation's own; an .error.json file is a 500. A request
// nothing was recorded for fails the test.
func (s *Server) answer(w http.ResponseWriter, op gen.OperationID, query string) {
	body, status, ok := file(op, query)
	if !ok {
		s.t.Errorf("recorded server: no recorded answer for %s?%s", op, query)
		body, status = []byte(`{"message":"no recorded answer","details":{}}`), http.StatusInternalServerError
	}
	s.write(w, status, body)
}

func file(op gen.OperationID, query string) ([]byte, int, bool) {
	var names []string
	for _, term := range strings.Split(query, "&") {
		names = append(names, string(op)+"."+term+".json", string(op)+"."+term+".error.json")
	}
	for _, name := range append(names, string(op)+".json", string(op)+".error.json") {
		b, err := answers.ReadFile(path.Join("answers", name))
		if err == nil && strings.HasSuffix(name, ".error.json") {
			return b, http.StatusInternalServerError, true
		}
		if err == nil {
			return b, http.StatusOK, true
		}
	}
	return nil, 0, false
}

// write answers status and body; an error carries the headers of the
// nginx in front of the real server, as four recorded error answers did.
func (s *Server) write(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if status >= 400 {
		for k, v := range ErrorHeaders {
			h.Set(k, v)
		}
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// ErrorHeaders are the headers of every error answer recorded.
var ErrorHeaders = map[string]string{
	"Server": "nginx", "X-Content-Type-Options": "nosniff", "X-XSS-Protection": "1; mode=block",
	"Cache-Control": "no-cache, no-store, max-age=0, must-revalidate", "Pragma": "no-cache", "Expires": "0",
	"X-Frame-Options": "DENY", "Strict-Transport-Security": "max-age=31536000",
}

func (s *Server) json(w http.ResponseWriter, v any) {
	if err, ok := v.(answerError); ok {
		b, _ := json.Marshal(map[string]any{"message": string(err), "details": map[string]any{}})
		s.write(w, http.StatusInternalServerError, b)
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		s.t.Errorf("recorded server: %v", err)
	}
	s.write(w, http.StatusOK, b)
}

// answerError is an error answer's message.
type answerError string

// start starts a run of a running configuration: it gets a new result id,
// and its status reads count from the start. A synchronous run answers
// when done: with the recorded HAS_ERRORS answer for the configuration that
// has one, else with its result id.
func (s *Server) start(rcID ids.RcID, sync bool) any {
	if sync {
		b, err := answers.ReadFile(path.Join("answers", string(gen.OpRunExperimentSynchronously)+".rcId="+rcID.String()+".json"))
		if err == nil {
			return json.RawMessage(b)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rc, ok := s.configs[rcID]
	if !ok {
		return answerError(fmt.Sprintf("no such running configuration %d", rcID))
	}
	resultID := s.nextID + 1
	s.nextID += 40
	s.results[resultID] = rc.typ
	rc.started = true
	s.configs[rcID] = rc
	s.reads[rcID] = 0
	run := gen.ApiBasicRun{Id: ids.RunID(resultID - 1), RcId: resultID, ScenarioId: rc.scenarioID, Type: rc.typ, HasOptions: rc.typ == gen.ExperimentTypeVARIATION}
	s.pending = append(s.pending, pendingRun{rcID: rcID, run: run})
	if sync {
		s.finish(rcID)
		return gen.ApiExperimentResult{ExperimentResultId: resultID, ValidationStatus: gen.ApiExperimentResultValidationStatusOK}
	}
	return gen.ApiRunExperiment{AnimationModelId: int64(rcID), ExperimentTypeId: rc.typ, Is3dAnimation: false}
}

// running is the state of a run under way (the recordings show none: the
// fake's, in the recorded fields).
const running = `{"failed":false,"finished":false,"genericState":"RUNNING","routesLoading":false,"step":"RUNNING","stopTrigger":false,"terminal":false,"text":null}`

// status answers the state of a configuration's run: as recorded (the last
// run's end) before any start and on the first read after one, then the
// run under way, then its end.
func (s *Server) status(rcID ids.RcID) any {
	stale, _, _ := file(gen.OpGetExperimentStatus, "")
	s.mu.Lock()
	defer s.mu.Unlock()
	rc, ok := s.configs[rcID]
	if !ok {
		return answerError("Cannot invoke \"com.scm.server.experiment.RunConfiguration.getState()\" because \"rc\" is null")
	}
	if !rc.started {
		return json.RawMessage(stale)
	}
	n := s.reads[rcID]
	s.reads[rcID]++
	switch {
	case n == 0:
		return json.RawMessage(stale)
	case n == 1 && !s.unseen:
		return json.RawMessage(running)
	}
	s.finish(rcID)
	return json.RawMessage(stale)
}

// finish lists the configuration's runs under way, but a VARIATION's.
func (s *Server) finish(rcID ids.RcID) {
	kept := s.pending[:0]
	for _, p := range s.pending {
		if p.rcID != rcID {
			kept = append(kept, p)
			continue
		}
		if p.run.Type == gen.ExperimentTypeVARIATION {
			continue
		}
		s.scenario[p.run.ScenarioId]++
		p.run.Name = "Statistics"
		if n := s.scenario[p.run.ScenarioId]; n > 1 {
			p.run.Name += " " + strconv.Itoa(n)
		}
		s.listed = append(s.listed, p.run)
	}
	s.pending = kept
}

func (s *Server) runs(scenarioID ids.ScenarioID) []gen.ApiBasicRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []gen.ApiBasicRun{}
	for _, r := range s.listed {
		if r.ScenarioId == scenarioID {
			out = append(out, r)
		}
	}
	return out
}

func (s *Server) configuration(rcID ids.RcID) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	rc, ok := s.configs[rcID]
	if !ok {
		return answerError(fmt.Sprintf("no such running configuration %d", rcID))
	}
	return gen.ApiARunConfigurationWrapper{Id: rc.id, Type: rc.typ, ScenarioId: &rc.scenarioID}
}

// dashboardPages are the two dashboard pages of a result, the first with
// the id experimentResultId+2, each followed by its two charts' ids.
func dashboardPages(resultID ids.ExperimentResultID) []gen.ApiDashboardPage {
	var pages []gen.ApiDashboardPage
	for i, name := range []string{"Financial and customer performance", "Operational performance"} {
		id := ids.PageID(int64(resultID) + 2 + int64(i)*3)
		charts := []gen.ApiDashboardChartData{{Id: int64(id) + 1, Name: name + " 1"}, {Id: int64(id) + 2, Name: name + " 2"}}
		pages = append(pages, gen.ApiDashboardPage{Id: id, Name: name, Charts: &charts})
	}
	return pages
}

// exportPage answers one page's workbook (a sheet whose A1 names the
// page), or the error recorded for the id: an rcId taken for a result, a
// variation's result.
func (s *Server) exportPage(w http.ResponseWriter, query string, resultID ids.ExperimentResultID, pageID ids.PageID) {
	if body, status, ok := file(gen.OpExportDashboardPage, query); ok {
		s.write(w, status, body)
		return
	}
	s.mu.Lock()
	typ, ok := s.results[resultID]
	s.mu.Unlock()
	switch {
	case !ok:
		s.json(w, answerError(`Cannot invoke "com.scm.server.experiment.Run.getId()" because "run" is null`))
		return
	case typ == gen.ExperimentTypeVARIATION:
		s.json(w, answerError("Dashboard is empty"))
		return
	}
	f := excelize.NewFile()
	defer f.Close()
	_ = f.SetCellValue("Sheet1", "A1", "page "+pageID.String())
	w.Header().Set("Content-Type", "application/octet-stream")
	_ = f.Write(w)
}

// Calls is how many requests of op the server has had.
func (s *Server) Calls(op gen.OperationID) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queries[op])
}

// LastQuery is the query of the last request of op, "" when none.
func (s *Server) LastQuery(op gen.OperationID) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return last(s.queries[op])
}

// Queries are the queries of every request of op, in order.
func (s *Server) Queries(op gen.OperationID) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.queries[op]...)
}

// LastForm is the multipart form of the last request of op: values, and
// the file names of file fields.
func (s *Server) LastForm(op gen.OperationID) map[string][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return last(s.forms[op])
}

// LastBody is the body of the last request of op that was not multipart.
func (s *Server) LastBody(op gen.OperationID) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return last(s.bodies[op])
}

// Headers are the headers of every request, in order.
func (s *Server) Headers() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.headers...)
}

func last[T any](list []T) T {
	var zero T
	if len(list) == 0 {
		return zero
	}
	return list[len(list)-1]
}
