package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/scmodel/scmgo/internal/specdiff/fetch"
)

// maxAnswerSize bounds what is read of one answer.
const maxAnswerSize = 16 << 20

// answer is what the server said to one call.
type answer struct {
	req    *http.Request
	status int
	header http.Header
	body   []byte
	value  any // the decoded JSON body of a 2xx JSON answer, nil otherwise
}

// send makes one call and checks its answer. It returns nil when the call
// failed before an answer came, and an error when no call has had an
// answer yet: an unreachable server or an untrusted certificate fails the
// same way for every call.
func (p *prober) send(ctx context.Context, c call) (*answer, error) {
	op := p.spec.Ops[c.op]
	if op.ChangesState { // the queue holds safe operations only; this is the last guard
		return nil, fmt.Errorf("probe: %s changes state and is never sent", op.ID)
	}
	p.sent++
	p.perOp[c.op]++
	ctx, cancel := context.WithTimeout(ctx, p.lim.Timeout)
	defer cancel()
	req, err := p.request(ctx, c)
	if err != nil {
		return nil, p.failed(c, err)
	}
	resp, err := p.srv.Client.Do(req)
	if err != nil {
		return nil, p.failed(c, fetch.TLSHint(fetch.RedactURLError(err)))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerSize))
	if err != nil {
		return nil, p.failed(c, err)
	}
	a := &answer{req: req, status: resp.StatusCode, header: resp.Header, body: body}
	p.answered++
	if a.status/100 == 2 {
		p.succeeded++
		p.perOpOK[c.op]++
	} else {
		p.lastErr[c.op] = fetch.StatusText(a.status)
		if p.firstFail == "" {
			p.firstFail = fmt.Sprintf("%s answered %s", describeCall(op.ID, c), fetch.StatusText(a.status))
		}
	}
	p.check(c, a)
	return a, nil
}

// request builds the request of a call: the operation's method and path
// under the base URL, its inputs as query parameters, the -header headers,
// and Accept with the media types of the success answer.
func (p *prober) request(ctx context.Context, c call) (*http.Request, error) {
	op := p.spec.Ops[c.op]
	u := *p.srv.Base
	u.Path = strings.TrimRight(u.Path, "/") + op.Path
	q := url.Values{}
	for k, v := range c.values {
		q.Set(k, v)
	}
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, op.Method, u.String(), nil)
	if err != nil {
		return nil, fetch.RedactURLError(err)
	}
	req.Header = p.srv.Headers.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	if types := op.Response.MediaTypes; len(types) > 0 {
		req.Header.Set("Accept", strings.Join(types, ", "))
	}
	return req, nil
}

// failed notes a call that got no answer. Before any answer came, it is
// an error that ends the probe.
func (p *prober) failed(c call, err error) error {
	op := p.spec.Ops[c.op].ID
	what := fmt.Sprintf("%s failed: %v", describeCall(op, c), err)
	if p.answered == 0 {
		return fmt.Errorf("probe %s: %s", fetch.RedactedURL(p.srv.Base), what)
	}
	p.out.note("probe-error", op, p.spec.At(c.op), what)
	return nil
}

// describeCall names a call with its inputs: getScenarios(projectId=1).
func describeCall(op string, c call) string {
	var in []string
	for _, k := range slices.Sorted(maps.Keys(c.values)) {
		in = append(in, k+"="+c.values[k])
	}
	return op + "(" + strings.Join(in, ", ") + ")"
}

// decodeJSON decodes an answer keeping numbers as written.
func decodeJSON(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

// scalarText is the text of a JSON string, number or boolean as an input
// value.
func scalarText(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, t != ""
	case json.Number:
		return t.String(), true
	case bool:
		return strconv.FormatBool(t), true
	}
	return "", false
}

// typedValue reads an input value as the JSON type of its schema, for
// validation.
func typedValue(s *openapi3.Schema, v string) (any, error) {
	switch {
	case s.Type.Is("integer"):
		n, err := strconv.ParseInt(v, 10, 64)
		return float64(n), err
	case s.Type.Is("number"):
		return strconv.ParseFloat(v, 64)
	case s.Type.Is("boolean"):
		return strconv.ParseBool(v)
	}
	return v, nil
}
