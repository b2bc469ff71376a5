package diff

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	oasdiff "github.com/oasdiff/oasdiff/diff"

	"github.com/scmodel/scmgo/internal/specdiff/listing"
	"github.com/scmodel/scmgo/internal/specdiff/oas"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// pair is a spec operation and the listing entry matched to it.
type pair struct {
	spec  int // index in Spec.Ops
	entry listing.Entry
}

// schemaFindings compares the request bodies and responses of matched
// operations with oasdiff. Operations are paired by our own matching
// (either name, then route), not by path: each pair is put under one
// synthetic path in two documents that keep their own components, so
// oasdiff names every compared schema after the spec's component.
// Parameters, media types and security are compared by compareDetails.
func schemaFindings(s *specdoc.Spec, l *listing.Listing, pairs []pair) ([]report.Finding, error) {
	if l.Doc == nil || len(pairs) == 0 {
		return nil, nil
	}
	base, revision := pairedDocument(s.Doc), pairedDocument(l.Doc)
	for _, p := range pairs {
		op := s.Ops[p.spec]
		specOp := s.Operation(p.spec)
		base.Paths.Set(pairPath(op.ID), pathItem(op.Method, bodiesOf(specOp, nil)))
		revision.Paths.Set(pairPath(op.ID), pathItem(op.Method, bodiesOf(p.entry.Op, specOp)))
	}
	config := oasdiff.NewConfig(oasdiff.WithExcludeElements([]string{
		oasdiff.ExcludeExamplesOption, oasdiff.ExcludeDescriptionOption, oasdiff.ExcludeTitleOption,
		oasdiff.ExcludeSummaryOption, oasdiff.ExcludeExtensionsOption,
	}))
	d, err := oasdiff.Get(config, base, revision)
	if err != nil {
		return nil, fmt.Errorf("%s: comparing schemas: %w", l.Source, err)
	}
	if d == nil || d.PathsDiff == nil {
		return nil, nil
	}
	c := newSchemaCollector(s.Models, oas.ModelsOf(l.Doc))
	c.noComposition = strings.HasPrefix(l.Format, "swagger-")
	for _, p := range pairs {
		op := s.Ops[p.spec]
		pd := d.PathsDiff.Modified[pairPath(op.ID)]
		if pd == nil || pd.OperationsDiff == nil {
			continue
		}
		for _, md := range pd.OperationsDiff.Modified {
			c.operation(op.ID, report.Location{File: l.File, Line: p.entry.Line}, md)
		}
	}
	return c.findings, nil
}

func pairPath(id string) string { return "/" + id }

// pairedDocument is an empty specdoc.Document that shares doc's components.
func pairedDocument(doc *openapi3.T) *openapi3.T {
	return &openapi3.T{
		OpenAPI:    "3.0.3",
		Info:       &openapi3.Info{Title: "paired operations", Version: "1"},
		Components: doc.Components,
		Paths:      openapi3.NewPaths(),
	}
}

func pathItem(method string, op *openapi3.Operation) *openapi3.PathItem {
	item := &openapi3.PathItem{}
	item.SetOperation(method, op)
	return item
}

// bodiesOf copies the request body and responses of op, and nothing else.
// When like is given (the spec's operation), a body the listing publishes
// under another media type (*/* is what Java servers often print) is
// compared with the spec's JSON body: the media types themselves are
// compared by compareDetails.
func bodiesOf(op, like *openapi3.Operation) *openapi3.Operation {
	out := &openapi3.Operation{Responses: openapi3.NewResponses()}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		rb := *op.RequestBody.Value
		if like != nil && like.RequestBody != nil && like.RequestBody.Value != nil {
			rb.Content = alignContent(rb.Content, like.RequestBody.Value.Content)
		}
		out.RequestBody = &openapi3.RequestBodyRef{Value: &rb}
	}
	if op.Responses == nil {
		return out
	}
	for code, ref := range op.Responses.Map() {
		if ref == nil || ref.Value == nil {
			continue
		}
		r := *ref.Value
		if like != nil && like.Responses != nil {
			if lr := like.Responses.Value(code); lr != nil && lr.Value != nil {
				r.Content = alignContent(r.Content, lr.Value.Content)
			}
		}
		out.Responses.Set(code, &openapi3.ResponseRef{Value: &r})
	}
	return out
}

// alignContent renames the one JSON-compatible media type of c to the JSON
// media type of spec when spec lacks c's: application/json and */* then
// have their schemas compared.
func alignContent(c, spec openapi3.Content) openapi3.Content {
	specJSON := jsonMediaType(spec)
	if specJSON == "" || c[specJSON] != nil {
		return c
	}
	var candidates []string
	for mt := range c {
		if jsonCompatibleMediaType(mt) {
			candidates = append(candidates, mt)
		}
	}
	if len(candidates) != 1 {
		return c
	}
	out := openapi3.Content{}
	for mt, v := range c {
		if mt == candidates[0] {
			mt = specJSON
		}
		out[mt] = v
	}
	return out
}

// jsonMediaType is the JSON media type of content, "" when it has none.
func jsonMediaType(c openapi3.Content) string {
	keys := slices.Sorted(maps.Keys(c))
	if i := slices.IndexFunc(keys, oas.IsJSONMediaType); i >= 0 {
		return keys[i]
	}
	return ""
}

// jsonCompatibleMediaType is JSON or a wildcard that may be JSON.
func jsonCompatibleMediaType(mt string) bool {
	return oas.IsJSONMediaType(mt) || mt == "*/*" || mt == "application/*"
}
