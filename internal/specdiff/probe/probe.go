package probe

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// Limits bound a probe.
type Limits struct {
	MaxCalls int               // the most calls to send
	Items    int               // items of each list whose ids are followed, and the take of paged calls
	Timeout  time.Duration     // the time limit of one call
	Inputs   map[string]string // -input: values no answer gives (jobId, variationId)
	// SpecBytes bounds the spec file read (-max-input-bytes); zero means
	// fetch.DefaultMaxSize.
	SpecBytes int64
}

// DefaultLimits are specdiff probe's: 200 calls, 3 items, 30 s a call.
func DefaultLimits() Limits { return Limits{MaxCalls: 200, Items: 3, Timeout: 30 * time.Second} }

// Server is the server a probe calls: its base URL (where the operation
// paths begin, usually ending in /api/v1), the client that calls it and
// the headers sent with every call (the key; never printed).
type Server struct {
	Base    *url.URL
	Client  *http.Client
	Headers http.Header
}

// Run is specdiff probe: it loads the spec the -spec flag names (the
// embedded one when it is empty), checks the inputs given, probes the
// server within lim and reports what the answers showed, with the notes
// on operations it could not check and its coverage. It fails when no
// call succeeds.
func Run(ctx context.Context, specFlag string, srv Server, lim Limits) (report.Report, error) {
	s, err := specdoc.Load(specFlag, lim.SpecBytes)
	if err == nil {
		err = CheckInputs(s, lim.Inputs)
	}
	if err != nil {
		return report.Report{}, err
	}
	p := newProber(s, srv, lim)
	findings, err := p.run(ctx)
	if err != nil {
		return report.Report{}, err
	}
	return report.Report{Command: "probe", Spec: s.Name, Unit: "server", Counted: "call", Other: "note", Date: time.Now().UTC().Format(time.DateOnly), Results: []report.Result{{
		Source: fetch.RedactedURL(srv.Base), Format: "live answers", Operations: p.sent, Findings: findings, Coverage: p.coverage(),
	}}}, nil
}

// Target checks specdiff probe's arguments, one http(s) base URL, and
// limits, and returns the URL without query and fragment.
func Target(args []string, lim Limits) (*url.URL, error) {
	switch {
	case len(args) != 1:
		return nil, errors.New("probe: want one BASE_URL (the URL the operation paths follow, ending in /api/v1); see specdiff -h")
	case lim.MaxCalls < 1:
		return nil, fmt.Errorf("probe: -max-calls %d: want at least 1", lim.MaxCalls)
	case lim.Items < 1:
		return nil, fmt.Errorf("probe: -items %d: want at least 1", lim.Items)
	case lim.Timeout <= 0:
		return nil, fmt.Errorf("probe: -timeout %s: want a positive duration", lim.Timeout)
	}
	u, err := url.Parse(args[0])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("probe: BASE_URL: want an http(s) URL such as https://host/api/v1")
	}
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// CheckInputs checks that every -input names an input of a read-only
// operation.
func CheckInputs(s *specdoc.Spec, inputs map[string]string) error {
	names := map[string]bool{}
	for _, op := range s.Ops {
		for _, prm := range op.Params {
			if !op.ChangesState {
				names[prm.Name] = true
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		if !names[name] {
			return fmt.Errorf("probe: -input %s=%s: no read-only operation of %s takes %s", name, inputs[name], s.Name, name)
		}
	}
	return nil
}
