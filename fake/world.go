package fake

import (
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// world is the server's state. One mutex guards it; every lifecycle is
// computed from the clock when read, so no goroutine runs in the background.
type world struct {
	mu    sync.Mutex
	cfg   config
	clock Clock

	projects   []*project
	scenarios  map[ids.ScenarioID]*scenario
	byProject  map[ids.ProjectID]*projectScenarios // the scenarios of each project, indexed
	rcs        map[ids.RcID]*runConfig
	runs       map[ids.RunID]*run              // by run id
	results    map[ids.ExperimentResultID]*run // by experimentResultId
	runSeq     map[ids.ScenarioID]int          // scenario → runs it has numbered (Statistics N)
	jobs       map[ids.JobID]*job
	pending    []*job // jobs not settled yet, oldest first: the order they end in
	variations map[ids.VariationID]*variation
	selections selectionStore
	lastMiles  map[ids.RcID]lastMileState
	extraRCs   map[ids.ScenarioID][]ids.RcID // the extra configurations of each scenario, in rcId order
	open       map[string]ids.ProjectID      // user → open project
	licensed   map[string]bool               // user → holds a license

	nextScenario  ids.ScenarioID
	nextRun       ids.RunID
	nextJob       ids.JobID
	nextVariation ids.VariationID
}

type project struct {
	id      ids.ProjectID
	owner   int64
	name    string
	created time.Time
}

type scenario struct {
	id        ids.ScenarioID
	projectID ids.ProjectID
	name      string // as getScenarios lists it
	typ       gen.ScenarioType
	tables    []tableData
	broken    bool // has validation errors; its runs fail
}

type tableData struct {
	id   string
	rows int64
}

// Ids of the seeded world; doc.go describes it.
const (
	firstNewScenarioID  = 1001
	firstRunID          = 5001
	firstJobID          = 4001
	firstVariationID    = 3001
	brokenScenarioID    = 104
	rcIDsPerScenario    = 100
	extraRCOffset       = 10 // the extra configurations of scenario S are S*100+11, +12, ...
	seededProjectCount  = 3
	defaultOrdersPerLMO = 40
)

func newWorld(cfg config) *world {
	w := &world{
		cfg:           cfg,
		clock:         cfg.clock,
		scenarios:     map[ids.ScenarioID]*scenario{},
		byProject:     map[ids.ProjectID]*projectScenarios{},
		rcs:           map[ids.RcID]*runConfig{},
		runs:          map[ids.RunID]*run{},
		results:       map[ids.ExperimentResultID]*run{},
		runSeq:        map[ids.ScenarioID]int{},
		jobs:          map[ids.JobID]*job{},
		variations:    map[ids.VariationID]*variation{},
		selections:    newSelectionStore(),
		lastMiles:     map[ids.RcID]lastMileState{},
		extraRCs:      map[ids.ScenarioID][]ids.RcID{},
		open:          map[string]ids.ProjectID{},
		licensed:      map[string]bool{},
		nextScenario:  firstNewScenarioID,
		nextRun:       firstRunID,
		nextJob:       firstJobID,
		nextVariation: firstVariationID,
	}
	for i := range cfg.keys {
		if cfg.licensed {
			w.licensed[userName(i)] = true
		}
	}
	w.seed()
	return w
}

func (w *world) seed() {
	w.projects = []*project{
		{id: 1, owner: 1, name: "Retail Network", created: time.Date(2026, 3, 10, 16, 19, 55, 145394000, time.UTC)},
		{id: 2, owner: 1, name: "Retail Network Archive", created: time.Date(2026, 3, 11, 8, 2, 41, 530117000, time.UTC)},
		{id: 3, owner: 1, name: "Spare Parts", created: time.Date(2026, 4, 2, 13, 47, 9, 80000, time.UTC)},
	}
	seeds := []struct {
		id      ids.ScenarioID
		project ids.ProjectID
		name    string
		typ     gen.ScenarioType
	}{
		{101, 1, "Baseline", gen.ScenarioTypeGFA},
		{102, 1, "Network Design", gen.ScenarioTypeNO},
		{103, 1, "Simulation", gen.ScenarioTypeSIM},
		{brokenScenarioID, 1, "Broken Data", gen.ScenarioTypeSIM},
		{105, 1, "Simulation", gen.ScenarioTypeSIM}, // names are not unique
		{201, 2, "Archive Baseline", gen.ScenarioTypeGFA},
		{301, 3, "Spare Parts Baseline", gen.ScenarioTypeNO},
	}
	for _, s := range seeds {
		sc := &scenario{id: s.id, projectID: s.project, name: s.name, typ: s.typ, tables: seededTables()}
		sc.broken = s.id == brokenScenarioID
		w.addScenario(sc)
	}
	for _, x := range w.cfg.extraRCs {
		w.addExtraConfiguration(x)
	}
}

// addExtraConfiguration adds a further running configuration of a type to
// a seeded scenario (WithExtraConfigurations).
func (w *world) addExtraConfiguration(x ExtraConfiguration) {
	if w.scenarios[x.ScenarioID] == nil || !slices.Contains(experimentTypes, x.Type) {
		return
	}
	n := len(w.extraRCs[x.ScenarioID]) + 1
	rcID := ids.RcID(int64(x.ScenarioID)*rcIDsPerScenario + extraRCOffset + int64(n))
	rc := newRunConfig(rcID, x.ScenarioID, x.Type)
	rc.wrapper.Name = ptr(i18nName(x.Type) + " " + itoa(int64(n+1)))
	w.rcs[rcID] = rc
	w.extraRCs[x.ScenarioID] = append(w.extraRCs[x.ScenarioID], rcID)
}

// addScenario stores sc with the five experiments of its type.
func (w *world) addScenario(sc *scenario) {
	w.scenarios[sc.id] = sc
	w.indexScenario(sc)
	for _, typ := range scenarioExperiments[sc.typ] {
		rcID := rcIDOf(sc.id, typ)
		w.rcs[rcID] = newRunConfig(rcID, sc.id, typ)
	}
}

// newScenario makes a scenario with the next free id.
func (w *world) newScenario(projectID ids.ProjectID, name string, typ gen.ScenarioType, tables []tableData) *scenario {
	sc := &scenario{id: w.nextScenario, projectID: projectID, name: name, typ: typ, tables: tables}
	w.nextScenario++
	w.addScenario(sc)
	return sc
}

func (w *world) removeScenario(id ids.ScenarioID) {
	if sc := w.scenarios[id]; sc != nil {
		w.unindexScenario(sc)
	}
	delete(w.scenarios, id)
	for _, rcID := range w.scenarioRCs(id) {
		delete(w.rcs, rcID)
	}
	delete(w.extraRCs, id)
}

// lock takes the world's lock and settles the jobs whose time has come, so
// what the caller reads is current; only those are touched, so a request
// costs the same with 50,000 jobs as with none. The returned time is "now"
// for the call.
func (w *world) lock() time.Time {
	w.mu.Lock()
	now := w.clock.Now()
	w.settleJobs(now)
	return now
}

func (w *world) unlock() { w.mu.Unlock() }

func (w *world) scenario(id ids.ScenarioID) (*scenario, error) {
	sc, ok := w.scenarios[id]
	if !ok {
		return nil, notFound("scenarioId %d: no such scenario", id)
	}
	return sc, nil
}

func (w *world) project(id ids.ProjectID) (*project, error) {
	for _, p := range w.projects {
		if p.id == id {
			return p, nil
		}
	}
	return nil, notFound("projectId %d: no such project", id)
}

func (w *world) sortedScenarios() []*scenario {
	out := make([]*scenario, 0, len(w.scenarios))
	for _, sc := range w.scenarios {
		out = append(out, sc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

func (sc *scenario) table(id string) *tableData {
	for i := range sc.tables {
		if sc.tables[i].id == id {
			return &sc.tables[i]
		}
	}
	return nil
}

// addRows adds n rows to a table of the scenario, creating it if needed;
// replace sets the count instead.
func (sc *scenario) addRows(tableID string, n int64, replace bool) {
	t := sc.table(tableID)
	if t == nil {
		sc.tables = append(sc.tables, tableData{id: tableID})
		t = &sc.tables[len(sc.tables)-1]
	}
	if replace {
		t.rows = 0
	}
	t.rows += n
}

// addTables adds the tables' rows, replacing existing rows when replace is
// set.
func (sc *scenario) addTables(tables []tableData, replace bool) {
	for _, t := range tables {
		sc.addRows(t.id, t.rows, replace)
	}
}

func (sc *scenario) copyTables() []tableData {
	return append([]tableData(nil), sc.tables...)
}
