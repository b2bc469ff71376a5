package api_test

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/api"
)

func loadSpec(t testing.TB) *openapi3.T {
	t.Helper()
	doc, err := api.Load()
	require.NoError(t, err)
	return doc
}

type specOp struct {
	route string
	op    *openapi3.Operation
}

// specOperations indexes the spec's operations by operationId.
func specOperations(doc *openapi3.T) map[string]specOp {
	out := map[string]specOp{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			out[op.OperationID] = specOp{route: method + " " + path, op: op}
		}
	}
	return out
}

// TestSpecHasEveryReferenceOperation checks that every operation of the
// reference is in the spec as the reference describes it, and so is every
// accepted addition (a line of api/additions.jsonl). An operation of the
// spec that is in neither is an addition: it is reported (go test -v shows
// it as skipped) with the line that accepts it, and does not fail the test.
func TestSpecHasEveryReferenceOperation(t *testing.T) {
	doc := loadSpec(t)
	ops := specOperations(doc)
	require.Len(t, reference, 78, "the reference's own table")
	additions := loadAdditions(t)
	rows := map[string]bool{}
	for _, want := range reference {
		rows[want.id] = true
	}
	for _, want := range additions {
		if rows[want.id] {
			t.Errorf("%s is in the reference and in %s: remove its line from %s", want.id, additionsFile, additionsFile)
		}
	}
	for _, want := range slices.Concat(reference, additions) {
		rows[want.id] = true
		t.Run(want.id, func(t *testing.T) {
			got, ok := ops[want.id]
			if !ok && slices.Contains(additions, want) {
				t.Fatalf("%s is in %s but not in the spec: remove its line", want.id, additionsFile)
			}
			require.True(t, ok, "operation %s of the reference is missing from the spec", want.id)
			assert.Equal(t, want, describeOperation(want.id, got), "%s as the spec has it (left: the reference's row, or the line of %s)", want.id, additionsFile)
			assert.IsType(t, true, got.op.Extensions["x-changes-state"], "x-changes-state is a boolean")
			assert.NotEmpty(t, got.op.Summary, "summary")
		})
	}
	for _, id := range slices.Sorted(maps.Keys(ops)) {
		if !rows[id] {
			t.Run(id, func(t *testing.T) {
				t.Skipf("%s is not in the reference: an addition. Accept it with this line at the end of %s:\n\t%s", id, additionsFile, additionLineOf(describeOperation(id, ops[id])))
			})
		}
	}
}

// describeOperation is the row of the reference's table that describes op
// as the spec has it.
func describeOperation(id string, op specOp) referenceOp {
	tag := ""
	if len(op.op.Tags) > 0 {
		tag = op.op.Tags[0]
	}
	snake, _ := op.op.Extensions["x-snake-case-name"].(string)
	changesState, _ := op.op.Extensions["x-changes-state"].(bool)
	return referenceOp{id, snake, tag, op.route, changesState,
		describeParams(op.op.Parameters), describeBody(op.op.RequestBody), describeResponse(op.op.Responses)}
}

func TestOperationNamesAreUnique(t *testing.T) {
	seen := map[string]string{}
	for _, op := range specOperations(loadSpec(t)) {
		snake, _ := op.op.Extensions["x-snake-case-name"].(string)
		assert.NotEmpty(t, snake, "%s has no x-snake-case-name", op.op.OperationID)
		for _, name := range []string{op.op.OperationID, snake} {
			if other, dup := seen[name]; dup && other != op.op.OperationID {
				t.Errorf("name %q used by %s and %s", name, other, op.op.OperationID)
			}
			seen[name] = op.op.OperationID
		}
	}
}

func describeParams(params openapi3.Parameters) string {
	var parts []string
	for _, ref := range params {
		p := ref.Value
		if p.In != openapi3.ParameterInQuery {
			parts = append(parts, p.Name+":in-"+p.In)
			continue
		}
		s := p.Schema.Value
		typ := schemaType(p.Schema)
		if s.Type.Is("array") {
			typ = "[]" + schemaType(s.Items)
			if p.Explode == nil || !*p.Explode {
				typ += "(not exploded)"
			}
		}
		d := p.Name + ":" + typ
		if p.Required {
			d += "!"
		}
		if s.Default != nil {
			d += fmt.Sprintf("=%v", s.Default)
		}
		parts = append(parts, d)
	}
	return strings.Join(parts, " ")
}

// schemaType names a schema the way the reference table does: its enum
// schema name, or its format, or its type.
func schemaType(ref *openapi3.SchemaRef) string {
	if ref.Ref != "" {
		return ref.Ref[strings.LastIndex(ref.Ref, "/")+1:]
	}
	if ref.Value.Format != "" && ref.Value.Format != "double" {
		return ref.Value.Format
	}
	return ref.Value.Type.Slice()[0]
}

func describeBody(rb *openapi3.RequestBodyRef) string {
	if rb == nil {
		return ""
	}
	b := rb.Value
	if len(b.Content) != 1 {
		return fmt.Sprintf("%d media types", len(b.Content))
	}
	if media := b.Content.Get("application/json"); media != nil {
		kind := "json"
		if b.Required {
			kind += "!"
		}
		return kind + " " + schemaType(media.Schema)
	}
	media := b.Content.Get("multipart/form-data")
	if media == nil {
		return "unexpected media type"
	}
	s := media.Schema.Value
	var fields []string
	for name, prop := range s.Properties {
		typ := schemaType(prop)
		if prop.Value.Type.Is("array") {
			typ = "[]" + schemaType(prop.Value.Items)
		}
		f := name + ":" + typ
		if slices.Contains(s.Required, name) {
			f += "!"
		}
		fields = append(fields, f)
	}
	sort.Strings(fields)
	return "multipart " + strings.Join(fields, " ")
}

func describeResponse(rs *openapi3.Responses) string {
	if ok := rs.Value("200"); ok != nil {
		if media := ok.Value.Content.Get("application/json"); media != nil {
			s := media.Schema
			if s.Value.Type.Is("array") {
				return "[]" + schemaType(s.Value.Items)
			}
			return schemaType(s)
		}
		if ok.Value.Content.Get("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet") != nil &&
			ok.Value.Content.Get("application/octet-stream") != nil {
			return "binary"
		}
		return "unexpected 200 content"
	}
	if d := rs.Default(); d != nil && len(d.Value.Content) == 0 && *d.Value.Description == "successful operation" {
		return "empty"
	}
	return "no successful response"
}

func TestEveryOperationDocumentsErrorsAndSecurity(t *testing.T) {
	doc := loadSpec(t)
	require.Len(t, doc.Security, 1)
	_, ok := doc.Security[0]["ApiKey"]
	assert.True(t, ok, "ApiKey is required globally")
	scheme := doc.Components.SecuritySchemes["ApiKey"].Value
	assert.Equal(t, "apiKey", scheme.Type)
	assert.Equal(t, "header", scheme.In)
	assert.Equal(t, "Authorization", scheme.Name)
	for id, op := range specOperations(doc) {
		for _, class := range []string{"4XX", "5XX"} {
			r := op.op.Responses.Value(class)
			if assert.NotNil(t, r, "%s has no %s response", id, class) {
				assert.NotNil(t, r.Value.Content.Get("application/json"), "%s %s is JSON", id, class)
			}
		}
		assert.Nil(t, op.op.Security, "%s overrides the global security", id)
	}
	assert.Equal(t, "/api/v1", strings.TrimPrefix(doc.Servers[0].URL, "{scheme}://{host}"), "paths are relative to a base URL ending in /api/v1")
}

func TestPagingParametersAreShared(t *testing.T) {
	doc := loadSpec(t)
	skip := doc.Components.Parameters["skip"].Value
	take := doc.Components.Parameters["take"].Value
	assert.EqualValues(t, 0, skip.Schema.Value.Default)
	assert.EqualValues(t, 1000, take.Schema.Value.Default)
	for id, op := range specOperations(doc) {
		var refs []string
		for _, p := range op.op.Parameters {
			if p.Ref != "" {
				refs = append(refs, p.Ref)
			}
		}
		paged := op.op.Extensions["x-paging"] == true
		if paged {
			assert.Equal(t, []string{"#/components/parameters/skip", "#/components/parameters/take"}, refs, id)
		} else {
			assert.Empty(t, refs, id)
		}
	}
}
