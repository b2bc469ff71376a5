package fake

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// experimentTypes in the reference's order: the experiment of type k
// (1-based) of scenario S has rcId S*100+k.
var experimentTypes = []gen.ExperimentType{
	gen.ExperimentTypeGFA, gen.ExperimentTypeGFAWITHROADS, gen.ExperimentTypeSIMULATION,
	gen.ExperimentTypeNETWORKOPTIMIZATION, gen.ExperimentTypeVARIATION, gen.ExperimentTypeCOMPARISON,
	gen.ExperimentTypeSAFETYSTOCK, gen.ExperimentTypeRISKANALYSIS, gen.ExperimentTypeLASTMILEOPTIMIZATION,
}

// scenarioExperiments are the five experiments of a scenario, by its type,
// in rcId order. A real server's SIM scenarios had exactly these five; those
// of GFA and NO scenarios are the fake's inference.
var scenarioExperiments = map[gen.ScenarioType][]gen.ExperimentType{
	gen.ScenarioTypeSIM: {gen.ExperimentTypeSIMULATION, gen.ExperimentTypeVARIATION, gen.ExperimentTypeCOMPARISON,
		gen.ExperimentTypeSAFETYSTOCK, gen.ExperimentTypeRISKANALYSIS},
	gen.ScenarioTypeGFA: {gen.ExperimentTypeGFA, gen.ExperimentTypeGFAWITHROADS, gen.ExperimentTypeVARIATION,
		gen.ExperimentTypeCOMPARISON, gen.ExperimentTypeLASTMILEOPTIMIZATION},
	gen.ScenarioTypeNO: {gen.ExperimentTypeNETWORKOPTIMIZATION, gen.ExperimentTypeVARIATION, gen.ExperimentTypeCOMPARISON,
		gen.ExperimentTypeSAFETYSTOCK, gen.ExperimentTypeLASTMILEOPTIMIZATION},
}

// rcIDOf is the rcId of the scenario's experiment of type typ.
func rcIDOf(scenarioID ids.ScenarioID, typ gen.ExperimentType) ids.RcID {
	return ids.RcID(int64(scenarioID)*rcIDsPerScenario + int64(slices.Index(experimentTypes, typ)+1))
}

// scenarioRCs are the rcIds of the scenario's experiments, in order: its
// own, then its extra ones (WithExtraConfigurations).
func (w *world) scenarioRCs(scenarioID ids.ScenarioID) []ids.RcID {
	var out []ids.RcID
	for k := range experimentTypes {
		if id := ids.RcID(int64(scenarioID)*rcIDsPerScenario + int64(k+1)); w.rcs[id] != nil {
			out = append(out, id)
		}
	}
	for _, id := range w.extraRCs[scenarioID] {
		if w.rcs[id] != nil {
			out = append(out, id)
		}
	}
	return out
}

// i18nName is the name the real server gives a run configuration: an i18n
// key, i18n-Experiment_<type in camel case>_text
// (i18n-Experiment_Simulation_text was seen).
func i18nName(typ gen.ExperimentType) string {
	var b strings.Builder
	for _, word := range strings.Split(string(typ), "_") {
		b.WriteString(word[:1] + strings.ToLower(word[1:]))
	}
	return "i18n-Experiment_" + b.String() + "_text"
}

var defaultRunConfigurations = map[gen.ExperimentType]string{
	gen.ExperimentTypeGFA:                  `{"numberOfSites":3,"demandCoverage":0.95,"useCapacity":true}`,
	gen.ExperimentTypeGFAWITHROADS:         `{"numberOfSites":3,"demandCoverage":0.95,"roadNetwork":"default"}`,
	gen.ExperimentTypeSIMULATION:           `{"modelStart":"2025-01-01","modelEnd":"2025-12-31","replications":1,"randomSeed":1}`,
	gen.ExperimentTypeNETWORKOPTIMIZATION:  `{"timeLimitSeconds":600,"optimalityGap":0.01,"maxIterations":5}`,
	gen.ExperimentTypeVARIATION:            `{"baseExperimentType":"SIMULATION","replicationsPerIteration":1}`,
	gen.ExperimentTypeCOMPARISON:           `{"comparedScenarioIds":[]}`,
	gen.ExperimentTypeSAFETYSTOCK:          `{"serviceLevel":0.95,"reviewPeriodDays":7}`,
	gen.ExperimentTypeRISKANALYSIS:         `{"replications":10,"riskEvents":["Site closure","Demand surge"]}`,
	gen.ExperimentTypeLASTMILEOPTIMIZATION: `{"maxRouteDurationMinutes":480,"vehicleCapacity":1000}`,
}

// runConfig is an experiment of a scenario: its stored wrapper, kept
// verbatim with every field a client sent, and its runs.
type runConfig struct {
	id         ids.RcID
	scenarioID ids.ScenarioID
	typ        gen.ExperimentType
	wrapper    gen.ApiARunConfigurationWrapper
	runs       []ids.RunID
}

func newRunConfig(id ids.RcID, scenarioID ids.ScenarioID, typ gen.ExperimentType) *runConfig {
	var rc gen.ApiARunConfigurationWrapper_RunConfiguration
	_ = rc.UnmarshalJSON([]byte(defaultRunConfigurations[typ]))
	return &runConfig{id: id, scenarioID: scenarioID, typ: typ, wrapper: gen.ApiARunConfigurationWrapper{
		Id: id, Type: typ, ScenarioId: ptr(scenarioID), Name: ptr(i18nName(typ)), RunConfiguration: &rc,
	}}
}

func (w *world) runConfig(id ids.RcID) (*runConfig, error) {
	rc, ok := w.rcs[id]
	if !ok {
		return nil, notFound("rcId %d: no such running configuration", id)
	}
	return rc, nil
}

// runConfigOfType finds an experiment and checks its type.
func (w *world) runConfigOfType(id ids.RcID, types ...gen.ExperimentType) (*runConfig, error) {
	rc, err := w.runConfig(id)
	if err != nil {
		return nil, err
	}
	for _, t := range types {
		if rc.typ == t {
			return rc, nil
		}
	}
	return nil, failure("rcId %d: a %s experiment, this operation needs %s", id, rc.typ, joinTypes(types))
}

func joinTypes(types []gen.ExperimentType) string {
	s := make([]string, len(types))
	for i, t := range types {
		s[i] = string(t)
	}
	return strings.Join(s, " or ")
}

// basicRunConfiguration answers a run configuration with the 16 fields a
// real server sent. Only progress moves: 100 once its latest run finished,
// 0 otherwise; status, step and runStatus stay IDLE (the only value seen).
func (w *world) basicRunConfiguration(rc *runConfig, now time.Time) gen.ApiBasicRunConfiguration {
	sc := w.scenarios[rc.scenarioID]
	validation := gen.ApiBasicRunConfigurationValidationStatusVALID
	if sc.broken {
		validation = gen.ApiBasicRunConfigurationValidationStatusNOTCONDUCTED
	}
	progress := 0.0
	if last := w.lastRun(rc); last != nil && last.finished(now) {
		progress = 100
	}
	return gen.ApiBasicRunConfiguration{
		AnimationModelId: nil, FeasibleCheckStatus: gen.ApiBasicRunConfigurationFeasibleCheckStatusNOTCONDUCTED,
		Id: rc.id, IsFeasibleCheckDataAvailable: false, ModelTime: ptr(0.0), Name: deref(rc.wrapper.Name),
		Progress: &progress, ProjectId: sc.projectID, RoutesProgress: ptr(0.0), RunStatus: ptr("IDLE"),
		ScenarioId: rc.scenarioID, Speed: ptr(1.0), Status: gen.ApiBasicRunConfigurationStatusIDLE,
		Step: gen.ApiBasicRunConfigurationStepIDLE, Type: rc.typ, ValidationStatus: validation,
	}
}

// rcResponse answers a run configuration with every field it holds. The
// generated response types are defined types that drop the unknown fields the
// model keeps, so this one encodes the model itself.
type rcResponse struct {
	wrapper gen.ApiARunConfigurationWrapper
}

func (r rcResponse) write(w http.ResponseWriter) error { return writeJSON(w, r.wrapper) }

// writeJSON answers 200 with v as JSON.
func writeJSON(w http.ResponseWriter, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(append(b, '\n'))
	return err
}

func (r rcResponse) VisitGetExperimentResponse(w http.ResponseWriter) error { return r.write(w) }
func (r rcResponse) VisitGetExperimentRunConfigurationResponse(w http.ResponseWriter) error {
	return r.write(w)
}
func (r rcResponse) VisitUpdateExperimentRunConfigurationResponse(w http.ResponseWriter) error {
	return r.write(w)
}

func (s *service) GetExperiments(_ context.Context, req genserver.GetExperimentsRequestObject) (genserver.GetExperimentsResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	sc, err := w.scenarioInProject(req.Params.ScenarioId, req.Params.ProjectId)
	if err != nil {
		return nil, err
	}
	list := genserver.GetExperiments200JSONResponse{}
	for _, id := range w.scenarioRCs(sc.id) {
		list = append(list, w.basicRunConfiguration(w.rcs[id], now))
	}
	return list, nil
}

func (s *service) GetExperiment(_ context.Context, req genserver.GetExperimentRequestObject) (genserver.GetExperimentResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	sc, err := w.scenario(req.Params.ScenarioId)
	if err != nil {
		return nil, err
	}
	if rc := w.rcs[rcIDOf(sc.id, req.Params.ExperimentType)]; rc != nil {
		return rcResponse{rc.wrapper}, nil
	}
	return nil, failure("scenarioId %d: a %s scenario has no %s experiment", sc.id, sc.typ, req.Params.ExperimentType)
}

func (s *service) GetExperimentRunConfiguration(_ context.Context, req genserver.GetExperimentRunConfigurationRequestObject) (genserver.GetExperimentRunConfigurationResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	rc, err := w.runConfig(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	return rcResponse{rc.wrapper}, nil
}

// UpdateExperimentRunConfiguration stores the sent wrapper verbatim, unknown
// fields included; the ids and the experiment type cannot change.
func (s *service) UpdateExperimentRunConfiguration(_ context.Context, req genserver.UpdateExperimentRunConfigurationRequestObject) (genserver.UpdateExperimentRunConfigurationResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	rc, err := w.runConfig(req.Params.RcId)
	if err != nil {
		return nil, err
	}
	body := *req.Body
	if err := checkWrapper(rc, body); err != nil {
		return nil, err
	}
	body.ScenarioId = ptr(rc.scenarioID)
	if body.Name == nil {
		body.Name = rc.wrapper.Name
	}
	if body.RunConfiguration == nil {
		body.RunConfiguration = rc.wrapper.RunConfiguration
	}
	rc.wrapper = body
	return rcResponse{rc.wrapper}, nil
}

func checkWrapper(rc *runConfig, body gen.ApiARunConfigurationWrapper) error {
	if body.Id != rc.id {
		return failure("body id: %d does not match parameter rcId %d", body.Id, rc.id)
	}
	if body.Type != rc.typ {
		return failure("body type: %s does not match the experiment's type %s", quoteText(string(body.Type)), rc.typ)
	}
	if body.ScenarioId != nil && *body.ScenarioId != rc.scenarioID {
		return failure("body scenarioId: %d does not match the experiment's scenario %d", *body.ScenarioId, rc.scenarioID)
	}
	if body.RunConfiguration != nil {
		raw, _ := body.RunConfiguration.MarshalJSON()
		if t := strings.TrimSpace(string(raw)); !strings.HasPrefix(t, "{") {
			return failure("body runConfiguration: must be a JSON object")
		}
	}
	return nil
}

func (s *service) GetExperimentOptions(_ context.Context, req genserver.GetExperimentOptionsRequestObject) (genserver.GetExperimentOptionsResponseObject, error) {
	name := "option"
	if req.Body != nil && req.Body.OptionName != nil && *req.Body.OptionName != "" {
		name = *req.Body.OptionName
	}
	const total = 25
	all := make([]gen.ApiIdNameObject, total)
	for i := range all {
		all[i] = gen.ApiIdNameObject{Id: name + "-" + itoa(int64(i+1)), Name: name + " " + itoa(int64(i+1))}
	}
	if req.Body != nil && req.Body.Filter != nil {
		all = filterOptions(all, *req.Body.Filter)
	}
	return genserver.GetExperimentOptions200JSONResponse{List: pageOf(all, req.Params.Skip, req.Params.Take)}, nil
}

func filterOptions(all []gen.ApiIdNameObject, filter string) []gen.ApiIdNameObject {
	var out []gen.ApiIdNameObject
	for _, o := range all {
		if strings.Contains(strings.ToLower(o.Name), strings.ToLower(filter)) {
			out = append(out, o)
		}
	}
	return out
}
