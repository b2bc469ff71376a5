package facade

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/scmodel/scmgo/api"
	"github.com/scmodel/scmgo/internal/spec"
)

// strictSpec is the spec as a validator that ignores discriminators reads
// it (internal/spec.LoadStrict): kin-openapi's schema validation under
// plain JSON Schema rules.
var strictSpec = sync.OnceValues(func() (*openapi3.T, error) { return spec.LoadStrict(api.Spec) })

// strictAnswerError validates a JSON answer of operation op against the
// strict spec, putting back the body it reads; nil for an answer that is
// not JSON.
func strictAnswerError(op string, resp *http.Response) error {
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if media != "application/json" {
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: reading the answer: %w", op, err)
	}
	doc, err := strictSpec()
	if err != nil {
		return err
	}
	return spec.ValidateAnswer(doc, op, resp.StatusCode, body)
}
