package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// The rules of the strict check: the spec read by plain JSON Schema rules,
// as tools that ignore OpenAPI's discriminator read it.
const (
	RuleOneOf   = "one-of"  // a oneOf's variants tell themselves apart by their own schema
	RuleExample = "example" // every response example validates strictly against its schema
)

// checkStrict applies the strict rules to raw, loaded a second time without
// its discriminators so that the caller's document is left as it is. top is
// the document's node tree, for the lines of what is reported.
func checkStrict(raw []byte, top *yaml.Node) []Problem {
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return nil // CheckData reports a document that does not load
	}
	problems := checkOneOfs(doc, top)
	DropDiscriminators(doc)
	for _, ex := range checkExamples(doc, top) {
		problems = append(problems, ex.Problem)
	}
	return problems
}

// badExample is an example that does not validate strictly, with the keys
// that lead to it from the top of the document.
type badExample struct {
	Problem
	keys []string
}

// checkOneOfs reports every oneOf of the components' schemas whose variants
// a validator that ignores the discriminator cannot tell apart by the
// discriminator's property: each variant must require it and allow exactly
// one value, the one the discriminator maps to that variant.
func checkOneOfs(doc *openapi3.T, top *yaml.Node) []Problem {
	if doc.Components == nil {
		return nil
	}
	var problems []Problem
	for _, name := range sortedKeys(doc.Components.Schemas) {
		s := doc.Components.Schemas[name].Value
		if s == nil || len(s.OneOf) == 0 || s.Discriminator == nil {
			continue
		}
		where := "components.schemas." + name
		line := nodeLine(top, "components", "schemas", name, "oneOf")
		for _, variant := range s.OneOf {
			if msg := variantProblem(s.Discriminator, variant); msg != "" {
				problems = append(problems, Problem{Rule: RuleOneOf, Where: where, Line: line, Message: msg})
			}
		}
	}
	return problems
}

// variantProblem says why a oneOf variant is not told apart by its own
// schema, "" when it is.
func variantProblem(d *openapi3.Discriminator, variant *openapi3.SchemaRef) string {
	prop, want := d.PropertyName, discriminatorValue(d, variant.Ref)
	v := variant.Value
	if v == nil {
		return ""
	}
	p := v.Properties[prop]
	switch {
	case !slices.Contains(v.Required, prop):
		return fmt.Sprintf("variant %s does not require %s, so a value without it can match other variants", refName(variant.Ref), prop)
	case p == nil || p.Value == nil || len(p.Value.Enum) != 1:
		return fmt.Sprintf("variant %s does not declare %s as a one-value enum [%s], so validators that ignore the discriminator can match it and another variant at once", refName(variant.Ref), prop, want)
	case fmt.Sprint(p.Value.Enum[0]) != want:
		return fmt.Sprintf("variant %s allows %s %v, but the discriminator maps %s to it", refName(variant.Ref), prop, p.Value.Enum[0], want)
	}
	return ""
}

// discriminatorValue is the value of the discriminator's property that
// names the variant ref: its mapping key, or else the schema's name.
func discriminatorValue(d *openapi3.Discriminator, ref string) string {
	for _, key := range sortedKeys(d.Mapping) {
		if d.Mapping[key].Ref == ref || refName(d.Mapping[key].Ref) == refName(ref) {
			return key
		}
	}
	return refName(ref)
}

// checkExamples validates every example of every JSON response of doc (a
// strict document) against the response's schema: the shared responses of
// the components once, and each operation's own.
func checkExamples(doc *openapi3.T, top *yaml.Node) []badExample {
	var problems []badExample
	if doc.Components != nil {
		for _, name := range sortedKeys(doc.Components.Responses) {
			at := []string{"components", "responses", name, "content", "application/json"}
			problems = append(problems, responseExamples("components.responses."+name, doc.Components.Responses[name], top, at)...)
		}
	}
	for _, o := range documentOperations(doc) {
		if o.op.Responses == nil {
			continue
		}
		for _, status := range sortedKeys(o.op.Responses.Map()) {
			r := o.op.Responses.Value(status)
			if r == nil || r.Ref != "" {
				continue // a shared response, checked once above
			}
			at := []string{"paths", o.path, strings.ToLower(o.method), "responses", status, "content", "application/json"}
			problems = append(problems, responseExamples(o.where()+" responses."+status, r, top, at)...)
		}
	}
	return problems
}

// responseExamples validates the examples of a response's JSON content.
func responseExamples(where string, r *openapi3.ResponseRef, top *yaml.Node, at []string) []badExample {
	if r == nil || r.Value == nil {
		return nil
	}
	mt := r.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil
	}
	return mediaExamples(where, mt, top, at)
}

// mediaExamples validates a media type's example and each of its examples.
func mediaExamples(where string, mt *openapi3.MediaType, top *yaml.Node, at []string) []badExample {
	var problems []badExample
	check := func(name string, value any, path ...string) {
		if err := ValidateValue(mt.Schema.Value, value); err != nil {
			keys := append(slices.Clone(at), path...)
			problems = append(problems, badExample{Problem{Rule: RuleExample, Where: where + " " + name,
				Line: nodeLine(top, keys...), Message: "does not validate strictly against its schema: " + err.Error()}, keys})
		}
	}
	if mt.Example != nil {
		check("example", mt.Example, "example")
	}
	for _, name := range sortedKeys(mt.Examples) {
		if ex := mt.Examples[name]; ex != nil && ex.Value != nil && ex.Value.Value != nil {
			check("examples."+name, ex.Value.Value, "examples", name)
		}
	}
	return problems
}

// nodeLine is the line of the node at the keys' path under top, or of the
// deepest key found on the way; 0 when not even the first is there.
func nodeLine(top *yaml.Node, keys ...string) int {
	line, n := 0, top
	for _, k := range keys {
		next := MappingValue(n, k)
		if next == nil {
			break
		}
		line, n = keyLine(n, k), next
	}
	return line
}

// keyLine is the line of key in the mapping n.
func keyLine(n *yaml.Node, key string) int {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i].Line
		}
	}
	return 0
}

// DropInvalidExamples removes from doc, a document's node tree, every
// response example that does not validate strictly against its schema (an
// examples map left empty goes too), and says what it removed. Overlay
// apply calls it: a schema the overlay changed can leave an example taken
// from an older answer behind, and a new one is to be taken from a new
// recorded answer.
func DropInvalidExamples(doc *yaml.Node) ([]string, error) {
	raw, err := yaml.Marshal(doc)
	if err != nil {
		return nil, err
	}
	loaded, err := LoadStrict(raw)
	if err != nil {
		return nil, nil // the checks that follow report a document that does not load
	}
	top := doc
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		top = doc.Content[0]
	}
	var dropped []string
	for _, ex := range checkExamples(loaded, top) {
		if removeExample(top, ex.keys) {
			dropped = append(dropped, ex.Where+": removed, it no longer validates against its schema ("+ex.Message+"); take a new one from a recorded answer")
		}
	}
	return dropped, nil
}

// removeExample removes the entry at keys from the mapping it is in, and an
// examples mapping it leaves empty.
func removeExample(top *yaml.Node, keys []string) bool {
	parents := []*yaml.Node{top}
	for _, k := range keys[:len(keys)-1] {
		next := MappingValue(parents[len(parents)-1], k)
		if next == nil {
			return false
		}
		parents = append(parents, next)
	}
	if !deleteEntry(parents[len(parents)-1], keys[len(keys)-1]) {
		return false
	}
	if n := len(keys); n >= 2 && keys[n-2] == "examples" && len(parents[n-1].Content) == 0 {
		deleteEntry(parents[n-2], "examples")
	}
	return true
}

// deleteEntry removes key and its value from the mapping n.
func deleteEntry(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content = slices.Delete(n.Content, i, i+2)
			return true
		}
	}
	return false
}
