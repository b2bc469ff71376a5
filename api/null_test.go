package api_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/testkit/genmodels"
)

// TestNullDecodesInEveryResponseModel: the real server answers null for
// fields a generated client treats as required. Every model an answer can
// carry decodes null in each of its fields, in all of them at once, and as
// a whole, without error, and keeps the other fields. The models are the
// spec's, made through the index make generate writes
// (internal/testkit/genmodels), so a new model needs no entry written by hand.
func TestNullDecodesInEveryResponseModel(t *testing.T) {
	doc := loadSpec(t)
	names := responseModelNames(doc)
	require.Greater(t, len(names), 40)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			newModel, found := genmodels.New[name]
			require.True(t, found, "response model %s is not in internal/testkit/genmodels/models.gen.go: run make generate", name)
			props := slices.Sorted(maps.Keys(doc.Components.Schemas[name].Value.Properties))
			require.NoError(t, json.Unmarshal([]byte(`null`), newModel()), "null as the whole answer")
			all := map[string]any{}
			for _, p := range props {
				all[p] = nil
				one := map[string]any{p: nil, "notInTheSpec": "kept"}
				v := newModel()
				require.NoError(t, json.Unmarshal(mustJSON(t, one), v), "field %s null", p)
				assert.Contains(t, string(mustJSON(t, v)), `"notInTheSpec":"kept"`, "the other fields survive a null %s", p)
			}
			require.NoError(t, json.Unmarshal(mustJSON(t, all), newModel()), "every field null")
		})
	}
}

// TestNullDecodesInsideLists: list items of null decode too.
func TestNullDecodesInsideLists(t *testing.T) {
	var page gen.ApiStrictTableChartData
	require.NoError(t, json.Unmarshal([]byte(`{"entityList":[null,{"index":1,"cells":[null,{"value":null}]}],"totalEntityCount":null}`), &page))
	require.Len(t, page.EntityList, 2)
	assert.Len(t, page.EntityList[1].Cells, 2)
	var scenarios []gen.ApiScenarioData
	require.NoError(t, json.Unmarshal([]byte(`[null,{"id":1,"name":null,"type":null,"tables":[null]}]`), &scenarios))
	assert.EqualValues(t, 1, scenarios[1].Id)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// responseModelNames lists the component schemas an answer can carry: those
// the responses of every operation reference, and those they reference in
// turn, that are objects.
func responseModelNames(doc *openapi3.T) []string {
	seen := map[string]bool{}
	var walk func(ref *openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil {
			return
		}
		if ref.Ref != "" {
			name := ref.Ref[strings.LastIndex(ref.Ref, "/")+1:]
			if seen[name] {
				return
			}
			seen[name] = true
		}
		s := ref.Value
		for _, p := range s.Properties {
			walk(p)
		}
		walk(s.Items)
		walk(s.AdditionalProperties.Schema)
		for _, group := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, sub := range group {
				walk(sub)
			}
		}
	}
	for _, o := range specOperations(doc) {
		for _, r := range o.op.Responses.Map() {
			for _, media := range r.Value.Content {
				walk(media.Schema)
			}
		}
	}
	var names []string
	for name := range seen {
		if s := doc.Components.Schemas[name].Value; s.Type.Is("object") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}
