package overlay

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/scmodel/scmgo/internal/spec"
	"github.com/scmodel/scmgo/internal/specdiff/oas"
)

// specTree is the spec's YAML node tree, where specdiff overlay finds the
// schema a finding is about and the JSONPath that targets it.
type specTree struct {
	top *yaml.Node
}

// schemaAt is a schema of the spec and the JSONPath of its node.
type schemaAt struct {
	node *yaml.Node
	path string
}

// get is the value of key in the schema (nil when absent).
func (s schemaAt) get(key string) *yaml.Node { return spec.MappingValue(s.node, key) }

// child is the schema at key below s.
func (s schemaAt) child(key string) schemaAt {
	return schemaAt{node: s.get(key), path: s.path + jsonPathKey(key)}
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// jsonPathKey is the JSONPath (RFC 9535) segment that selects a member.
func jsonPathKey(key string) string {
	if identifier.MatchString(key) {
		return "." + key
	}
	return "[" + jsonPathString(key) + "]"
}

func jsonPathString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// hasRawJSON reports whether the spec has the schema of values kept
// verbatim, components.schemas.RawJSON.
func (t *specTree) hasRawJSON() bool {
	return schemaAt{node: t.top, path: "$"}.child("components").child("schemas").get("RawJSON") != nil
}

// root finds the schema a finding's path starts at: a component schema
// (ApiProjectResponse) or an operation's response ("getX 200 response").
func (t *specTree) root(name string) (schemaAt, error) {
	op, code, ok := strings.Cut(strings.TrimSuffix(name, " response"), " ")
	if !ok {
		s := schemaAt{node: t.top, path: "$"}.child("components").child("schemas").child(name)
		if s.node == nil {
			return s, fmt.Errorf("the spec has no schema %s", name)
		}
		return s, nil
	}
	resp, err := t.response(op, code)
	if err != nil {
		return schemaAt{}, err
	}
	content := resp.child("content")
	for _, mt := range mappingKeys(content.node) {
		if oas.IsJSONMediaType(strings.ToLower(mt)) {
			if s := content.child(mt).child("schema"); s.node != nil {
				return s, nil
			}
		}
	}
	return schemaAt{}, fmt.Errorf("the %s response of %s has no JSON schema", code, op)
}

// response finds the response of an operation for a status key, through
// a $ref to components.responses.
func (t *specTree) response(opID, code string) (schemaAt, error) {
	paths := schemaAt{node: t.top, path: "$"}.child("paths")
	for _, p := range mappingKeys(paths.node) {
		item := paths.child(p)
		for _, m := range mappingKeys(item.node) {
			op := item.child(m)
			if id := op.get("operationId"); id != nil && id.Value == opID {
				resp := op.child("responses").child(code)
				if resp.node == nil {
					return resp, fmt.Errorf("operation %s has no %s response", opID, code)
				}
				return t.deref(resp)
			}
		}
	}
	return schemaAt{}, fmt.Errorf("the spec has no operation %s", opID)
}

// deref follows local $refs from s to the node they name.
func (t *specTree) deref(s schemaAt) (schemaAt, error) {
	for range 16 {
		ref := s.get("$ref")
		if ref == nil {
			return s, nil
		}
		target, ok := strings.CutPrefix(ref.Value, "#/")
		if !ok {
			return s, fmt.Errorf("%s: $ref %s is not local", s.path, ref.Value)
		}
		s = schemaAt{node: t.top, path: "$"}
		for _, tok := range strings.Split(target, "/") {
			s = s.child(strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~"))
			if s.node == nil {
				return s, fmt.Errorf("$ref %s does not resolve", ref.Value)
			}
		}
	}
	return s, fmt.Errorf("%s: $refs nest too deep", s.path)
}

// walk follows a property path (pages[].page.id, as tokens) from schema s:
// a name steps into properties, [] into items; $refs are followed on the
// way, not at the end.
func (t *specTree) walk(s schemaAt, tokens []string) (schemaAt, error) {
	for _, tok := range tokens {
		d, err := t.deref(s)
		if err != nil {
			return d, err
		}
		if tok == "[]" {
			s = d.child("items")
		} else {
			s = d.child("properties").child(tok)
		}
		if s.node == nil {
			return s, fmt.Errorf("%s has no %s", d.path, strings.TrimPrefix(tok, "."))
		}
	}
	return s, nil
}

// propertyTokens splits a property path into names and []: pages[].page.id
// is pages, [], page, id.
func propertyTokens(property string) []string {
	var out []string
	for _, part := range strings.Split(property, ".") {
		name := strings.TrimRight(part, "[]")
		if name != "" {
			out = append(out, name)
		}
		for range (len(part) - len(name)) / 2 {
			out = append(out, "[]")
		}
	}
	return out
}

// mappingKeys are the keys of a mapping node, in order.
func mappingKeys(n *yaml.Node) []string {
	var keys []string
	for i := 0; n != nil && n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
		keys = append(keys, n.Content[i].Value)
	}
	return keys
}

// hasString reports whether sequence n holds the string s.
func hasString(n *yaml.Node, s string) bool {
	return n != nil && slices.ContainsFunc(n.Content, func(c *yaml.Node) bool { return c.Kind == yaml.ScalarNode && c.Value == s })
}
