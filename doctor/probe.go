package doctor

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// maxProbedScenarios bounds the scenarios whose lists the probe reads.
const maxProbedScenarios = 10

// probeCounts are what the probe read.
type probeCounts struct {
	scenarios, read, experiments, runs int
}

// probe reads the lists of a project through the facade's typed methods
// (getProjects, getScenarios, and getExperiments and
// getExperimentRunsForScenario of each scenario, up to
// maxProbedScenarios), none of which changes state, and reports where the
// answers (these and the key check's) differed from the spec, as specdiff
// probe reports it.
func (d *doctor) probe(ctx context.Context) bool {
	project, ok := d.project(ctx)
	if !ok {
		return true
	}
	n, err := d.readProject(ctx, project.Id)
	if err != nil {
		seen, hint := errorText(err)
		d.add(CheckProbe, Fail, fmt.Sprintf("reading project %d: %s", project.Id, seen), cmp.Or(hint, "see the server's message"))
		return true
	}
	seen := fmt.Sprintf("project %d (%s): %s, %s, %s listed", project.Id, project.Name, plural(n.scenarios, "scenario"),
		plural(n.experiments, "experiment"), plural(n.runs, "run"))
	if n.read < n.scenarios {
		seen += fmt.Sprintf(" (the lists of the first %d scenarios read)", n.read)
	}
	d.driftLine(seen)
	return true
}

// project is the project the probe reads: Options.Project, else the first
// listed. ok is false when there is none, with the line that says so.
func (d *doctor) project(ctx context.Context) (gen.ApiProjectResponse, bool) {
	projects, err := d.c.Projects.List(ctx)
	if err != nil {
		seen, hint := errorText(err)
		d.add(CheckProbe, Fail, "listing the projects: "+seen, cmp.Or(hint, "see the server's message"))
		return gen.ApiProjectResponse{}, false
	}
	if len(projects) == 0 {
		d.add(CheckProbe, Warn, "the user can access no project: nothing to read", "give the user a project on the server")
		return gen.ApiProjectResponse{}, false
	}
	if d.opts.Project == 0 {
		return projects[0], true
	}
	i := slices.IndexFunc(projects, func(p gen.ApiProjectResponse) bool { return p.Id == d.opts.Project })
	if i < 0 {
		d.add(CheckProbe, Fail, fmt.Sprintf("project %d is not among the %s the user can access", d.opts.Project, plural(len(projects), "project")),
			fmt.Sprintf("name one of %s with %s", listed(projectIDs(projects), 5), d.names.Project))
		return gen.ApiProjectResponse{}, false
	}
	return projects[i], true
}

// readProject reads the project's scenarios and, of each of the first
// maxProbedScenarios, its experiments and its runs.
func (d *doctor) readProject(ctx context.Context, projectID ids.ProjectID) (probeCounts, error) {
	scenarios, err := d.c.Scenarios.List(ctx, projectID)
	if err != nil {
		return probeCounts{}, err
	}
	n := probeCounts{scenarios: len(scenarios), read: min(len(scenarios), maxProbedScenarios)}
	for _, s := range scenarios[:n.read] {
		experiments, err := d.c.Experiments.List(ctx, projectID, s.Id)
		if err != nil {
			return n, err
		}
		runs, err := d.c.Experiments.Runs(ctx, s.Id)
		if err != nil {
			return n, err
		}
		n.experiments += len(experiments)
		n.runs += len(runs)
	}
	return n, nil
}

// driftLine ends the probe with the drift the client saw: OK when the
// answers matched the spec, else a warning that counts the differences by
// kind and says where they are written.
func (d *doctor) driftLine(seen string) {
	found := slices.DeleteFunc(d.c.Drift(), func(f drift.Finding) bool { return !f.Drift })
	if len(found) == 0 {
		d.add(CheckProbe, OK, seen+"; every answer matched the spec", "")
		return
	}
	d.add(CheckProbe, Warn, fmt.Sprintf("%s; the answers differed from the spec in %s (%s)", seen, plural(len(found), "place"), kindCounts(found)),
		"the SDK keeps working: it keeps what it did not expect and reports it; "+d.names.Drift+" holds each difference")
}

// kindCounts counts findings by kind, in the order kinds first appear.
func kindCounts(found []drift.Finding) string {
	var kinds []string
	count := map[string]int{}
	for _, f := range found {
		if count[f.Kind] == 0 {
			kinds = append(kinds, f.Kind)
		}
		count[f.Kind]++
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s %d", k, count[k])
	}
	return strings.Join(parts, ", ")
}

func projectIDs(projects []gen.ApiProjectResponse) []string {
	out := make([]string, len(projects))
	for i, p := range projects {
		out[i] = p.Id.String()
	}
	return out
}
