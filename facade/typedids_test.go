package facade_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mixedIDs are calls that hand one kind of id to a method that wants
// another, each with what the compiler says of it: the facade's signatures
// keep the kinds apart, not its docs. The first is the mix-up users made
// most: an rcId where a result's id belongs.
var mixedIDs = map[string]struct{ call, want string }{
	"an rcId for a result's dashboard": {"c.Dashboards.Pages(ctx, rc)",
		"cannot use rc (variable of int64 type ids.RcID) as ids.ExperimentResultID value in argument to c.Dashboards.Pages"},
	"a result's id for a run configuration": {"c.Run(result)",
		"cannot use result (variable of int64 type ids.ExperimentResultID) as ids.RcID value in argument to c.Run"},
	"a listed run's rcId, which is its result's id": {"c.Experiments.Status(ctx, listed.RcId)",
		"cannot use listed.RcId (variable of int64 type ids.ExperimentResultID) as ids.RcID value in argument to c.Experiments.Status"},
	"a listed run's id for its result": {"c.Dashboards.ExportPage(ctx, listed.Id, page)",
		"cannot use listed.Id (variable of int64 type ids.RunID) as ids.ExperimentResultID value in argument to c.Dashboards.ExportPage"},
	"a result's id for its run": {"c.Scenarios.ConvertGFAResult(ctx, result, gen.ScenarioTypeGFA, nil)",
		"cannot use result (variable of int64 type ids.ExperimentResultID) as ids.RunID value in argument to c.Scenarios.ConvertGFAResult"},
	"a scenario for a project": {"c.Scenarios.List(ctx, scenario.Id)",
		"cannot use scenario.Id (variable of int64 type ids.ScenarioID) as ids.ProjectID value in argument to c.Scenarios.List"},
	"a job for a scenario": {"c.Scenarios.Remove(ctx, job.JobID)",
		"cannot use job.JobID (variable of int64 type ids.JobID) as ids.ScenarioID value in argument to c.Scenarios.Remove"},
	"a page for a result": {"c.Dashboards.Pages(ctx, page)",
		"cannot use page (variable of int64 type ids.PageID) as ids.ExperimentResultID value in argument to c.Dashboards.Pages"},
	"a bare integer variable": {"c.Experiments.Start(ctx, n, nil)",
		"cannot use n (variable of type int64) as ids.RcID value in argument to c.Experiments.Start"},
	"a result's id for a run": {"c.Run(listed.RcId)",
		"cannot use listed.RcId (variable of int64 type ids.ExperimentResultID) as ids.RcID value in argument to c.Run"},
}

// rightIDs are the same calls with the ids they want: the snippet compiles
// but for the call under test, so each error above is that call's own.
const rightIDs = `
	_, _ = c.Dashboards.Pages(ctx, result)
	_ = c.Run(rc)
	_, _ = c.Experiments.Status(ctx, rc)
	_, _ = c.Dashboards.ExportPage(ctx, listed.RcId, page)
	_, _ = c.Scenarios.ConvertGFAResult(ctx, listed.Id, gen.ScenarioTypeGFA, nil)
	_, _ = c.Scenarios.List(ctx, project)
	_, _ = c.Scenarios.Remove(ctx, scenario.Id)
	_, _ = c.Experiments.Start(ctx, 10303, nil) // an untyped constant takes the kind it is given
	_ = n
`

const idsProgram = `package mix

import (
	"context"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

func use(ctx context.Context, c *facade.Client, listed gen.ApiBasicRun, scenario gen.ApiScenarioData, job *facade.Job,
	rc ids.RcID, result ids.ExperimentResultID, page ids.PageID, project ids.ProjectID, n int64) {
	_ = job
%s
}
`

// The compiler tells the kinds of ids apart: each mixed call fails to
// type-check with the error that names both kinds, and the right calls
// type-check.
func TestMixedIDsDoNotCompile(t *testing.T) {
	imp := exportImporter(t, "github.com/scmodel/scmgo/facade")
	check := func(body string) []types.Error {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "mix.go", strings.Replace(idsProgram, "%s", body, 1), parser.SkipObjectResolution)
		require.NoError(t, err)
		var errs []types.Error
		conf := types.Config{Importer: imp, Error: func(err error) { errs = append(errs, err.(types.Error)) }}
		_, _ = conf.Check("mix", fset, []*ast.File{f}, nil)
		return errs
	}
	require.Empty(t, check(rightIDs), "the right ids type-check")
	for name, tc := range mixedIDs {
		t.Run(name, func(t *testing.T) {
			errs := check(rightIDs + "\t_ = func() { " + tc.call + " }\n")
			require.Len(t, errs, 1, "%s type-checks, or fails for another reason", tc.call)
			assert.Equal(t, tc.want, errs[0].Msg)
		})
	}
}

// exportImporter imports the packages pkg depends on from the export data
// the go command builds for them (go list -export), as the compiler does.
func exportImporter(t *testing.T, pkg string) types.Importer {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", pkg).Output()
	if ctx.Err() != nil {
		t.Fatalf("go list -export %s: no answer within 2 minutes", pkg)
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		t.Fatalf("go list -export %s: %v\n%s", pkg, err, exitErr.Stderr)
	}
	require.NoError(t, err)
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "="); ok && file != "" {
			exports[path] = file
		}
	}
	require.Contains(t, exports, pkg)
	return importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, os.ErrNotExist
		}
		return os.Open(file)
	})
}
