package facade

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/scmodel/scmgo/gen"
)

// RawRequest holds the inputs of an operation called by name with
// [Client.Call].
type RawRequest struct {
	// Query holds the query parameters, lists as repeated values.
	Query url.Values
	// ContentType is the media type of Body: application/json, or a
	// multipart/form-data type with its boundary.
	ContentType string
	// Body returns the request body; nil means none. It is called once per
	// attempt, so a retried request sends the body again.
	Body func() (io.Reader, error)
	// LogBody, if set, is the JSON body as it may appear in debug logs; the
	// operation's sensitive fields are redacted from it.
	LogBody json.RawMessage
}

// RawWithResponses returns the generated low-level client of [Client.Raw]
// with its typed methods: each operation's ...WithResponse method reads the
// answer into the generated model of its status (JSON200, JSON4XX, ...)
// beside the raw body. It shares Raw's base URL, authentication and HTTP
// client, and like Raw it does not retry and does not log.
func (c *Client) RawWithResponses() *gen.ClientWithResponses {
	return &gen.ClientWithResponses{ClientInterface: c.raw}
}

// Call sends the operation named by its camelCase or snake_case name with
// the client's authentication, retries, logging and typed errors, and
// returns the successful response with its body open: the caller closes it.
// Reading the body past [Limits].MaxBodyBytes fails with a [*limits.Error].
// It is the way to the whole interface for generic tools (scm call uses it);
// the methods of the areas are the typed way.
func (c *Client) Call(ctx context.Context, operation string, in RawRequest) (*http.Response, error) {
	shared, ok := gen.LookupSharedOperation(operation)
	if !ok {
		return nil, &ValidationError{Operation: operation, Field: "operation", Reason: "no such operation"}
	}
	op := *shared // read only
	cl := call{op: op, build: func(server string) (*http.Request, error) { return rawRequest(server, op, in) }}
	if in.LogBody != nil {
		cl = cl.withBody(in.LogBody)
	}
	resp, err := c.do(ctx, cl, nil)
	if err != nil {
		return nil, err
	}
	resp.Body = c.cfg.limits.capBody(op.ID, resp.Body)
	return resp, nil
}

func rawRequest(server string, op gen.Operation, in RawRequest) (*http.Request, error) {
	u := server + strings.TrimPrefix(op.Path, "/")
	if len(in.Query) > 0 {
		u += "?" + in.Query.Encode()
	}
	var body io.Reader
	if in.Body != nil {
		var err error
		if body, err = in.Body(); err != nil {
			return nil, err
		}
		if body, err = replayableSensitive(op, body); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequest(op.Method, u, body)
	if err != nil {
		if closer, ok := body.(io.Closer); ok {
			closer.Close() // ends whatever writes into it
		}
		return nil, err
	}
	if in.ContentType != "" {
		req.Header.Set("Content-Type", in.ContentType)
	}
	return req, nil
}

// replayableSensitive reads the JSON body of an operation with sensitive
// fields into memory, when it is not there already, so the request has a
// GetBody: the facade reads the values of those fields from it, to keep
// them out of errors even when the server quotes them. Such bodies are
// small; others are left to stream.
func replayableSensitive(op gen.Operation, body io.Reader) (io.Reader, error) {
	if op.Body == nil || len(op.Body.Sensitive) == 0 {
		return body, nil
	}
	switch body.(type) {
	case *bytes.Buffer, *bytes.Reader, *strings.Reader:
		return body, nil
	}
	b, err := io.ReadAll(body)
	if closer, ok := body.(io.Closer); ok {
		closer.Close()
	}
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(b), nil
}
