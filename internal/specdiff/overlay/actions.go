package overlay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/speakeasy-api/openapi/overlay"
	"gopkg.in/yaml.v3"

	"github.com/scmodel/scmgo/internal/spec"
)

// rawJSONRef is the schema of values kept verbatim: the items of an array
// and the values of an object whose shape no answer told.
const rawJSONRef = "#/components/schemas/RawJSON"

// retypeKeywords are the keywords of a schema that belong to its type: a
// retyped property loses those the new type does not give again.
var retypeKeywords = []string{"$ref", "allOf", "anyOf", "oneOf", "format", "enum", "items", "properties", "required",
	"additionalProperties", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
	"pattern", "minItems", "maxItems", "uniqueItems", "default", "example"}

// actions are the overlay actions of the plan, marking what they add or
// change x-observed: source. Per schema, in JSONPath order: keywords
// removed, required entries removed, one update, enumeration values added.
func (p *overlayPlan) actions(source string) []overlay.Action {
	var out []overlay.Action
	for _, c := range p.sorted() {
		out = append(out, p.changeActions(c, source)...)
	}
	return out
}

func (p *overlayPlan) changeActions(c *change, source string) []overlay.Action {
	desc := strings.Join(c.why, "; ")
	upd := &yaml.Node{Kind: yaml.MappingNode}
	var removes []string
	marked, replace := false, false
	if len(c.retype) > 0 {
		rm, kv, ok := p.retypeKeys(c)
		removes, marked, replace = rm, ok, ok
		upd.Content = append(upd.Content, kv...)
	}
	if c.nullable && valueOfKey(upd.Content, "nullable") == nil {
		rm, kv := nullableKeys(c, replace)
		removes = append(removes, rm...)
		upd.Content = append(upd.Content, kv...)
		marked = true
	}
	var out []overlay.Action
	if len(c.unrequire) > 0 {
		rm, acts := unrequireActions(c, desc)
		removes, out = append(removes, rm...), acts
		marked = true
	}
	if len(c.props) > 0 {
		upd.Content = append(upd.Content, str("properties"), p.newProperties(c, source))
	}
	if len(c.enum) > 0 {
		marked = true
	}
	if marked {
		upd.Content = append(upd.Content, str("x-observed"), str(observedMark(c.at, source, replace)))
	}
	var acts []overlay.Action
	for _, k := range slices.Compact(removes) {
		acts = append(acts, overlay.Action{Target: c.at.path + jsonPathKey(k), Description: desc, Remove: true})
	}
	acts = append(acts, out...)
	if len(upd.Content) > 0 {
		acts = append(acts, overlay.Action{Target: c.at.path, Description: desc, Update: *upd})
	}
	if len(c.enum) > 0 {
		acts = append(acts, overlay.Action{Target: c.at.path + ".enum", Description: desc, Update: *enumNodes(c.enum)})
	}
	return acts
}

// retypeKeys are the keywords to remove and the entries to set that give
// the property the JSON type the answers had; ok is false, with a note,
// when they had types no one schema type holds.
func (p *overlayPlan) retypeKeys(c *change) (removes []string, kv []*yaml.Node, ok bool) {
	t, null, ok := mergeTypes(c.retype)
	if !ok {
		p.notes = append(p.notes, fmt.Sprintf("%s: answers had %s there; no one type holds them: change the spec by hand",
			c.at.path, strings.Join(slices.Sorted(maps.Keys(c.retype)), " and ")))
		return nil, nil, false
	}
	kv = p.schemaKV(t)
	if null {
		kv = append(kv, str("nullable"), boolean(true))
	}
	for _, k := range retypeKeywords {
		old := c.at.get(k)
		if old != nil && !spec.Equal(old, valueOfKey(kv, k)) {
			removes = append(removes, k)
		}
	}
	return removes, kv, true
}

// nullableKeys make a property nullable; beside a $ref (which OpenAPI 3.0
// reads alone) the reference moves into allOf.
func nullableKeys(c *change, retyped bool) (removes []string, kv []*yaml.Node) {
	kv = []*yaml.Node{str("nullable"), boolean(true)}
	if ref := c.at.get("$ref"); ref != nil && !retyped {
		wrapped := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{refNode(ref.Value)}}
		return []string{"$ref"}, append([]*yaml.Node{str("allOf"), wrapped}, kv...)
	}
	return nil, kv
}

// unrequireActions remove names from a schema's required list: each by a
// filter, or the whole list when none is left (OpenAPI 3.0 wants at least
// one entry).
func unrequireActions(c *change, desc string) (removes []string, acts []overlay.Action) {
	left := 0
	for _, n := range c.at.get("required").Content {
		if !slices.Contains(c.unrequire, n.Value) {
			left++
		}
	}
	if left == 0 {
		return []string{"required"}, nil
	}
	for _, name := range c.unrequire {
		acts = append(acts, overlay.Action{Target: c.at.path + ".required[?@ == " + jsonPathString(name) + "]", Description: desc, Remove: true})
	}
	return nil, acts
}

func (p *overlayPlan) newProperties(c *change, source string) *yaml.Node {
	props := &yaml.Node{Kind: yaml.MappingNode}
	for _, name := range slices.Sorted(maps.Keys(c.props)) {
		kv, null := []*yaml.Node{}, false
		if t, n, ok := mergeTypes(c.props[name]); ok {
			kv, null = p.schemaKV(t), n
		}
		if null {
			kv = append(kv, str("nullable"), boolean(true))
		}
		schema := &yaml.Node{Kind: yaml.MappingNode, Content: append(kv, str("x-observed"), str(source))}
		props.Content = append(props.Content, str(name), schema)
	}
	return props
}

// mergeTypes is the one JSON schema type of the JSON types seen, and
// whether null was among them: integer and number make number, null only
// makes "" (any type).
func mergeTypes(seen map[string]bool) (t string, null, ok bool) {
	null = seen["null"]
	var types []string
	for _, k := range slices.Sorted(maps.Keys(seen)) {
		if k != "null" {
			types = append(types, k)
		}
	}
	if len(types) == 2 && types[0] == "integer" && types[1] == "number" {
		types = types[1:]
	}
	switch len(types) {
	case 0:
		return "", null, true
	case 1:
		return types[0], null, true
	}
	return "", null, false
}

// schemaKV are the entries of a schema of JSON type t, as the spec writes
// them: integers int64, numbers double, arrays and objects of values kept
// verbatim; an empty t (only null seen) gives no type.
func (p *overlayPlan) schemaKV(t string) []*yaml.Node {
	raw := refNode(rawJSONRef)
	if !p.tree.hasRawJSON() {
		raw = &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	}
	switch t {
	case "":
		return []*yaml.Node{str("description"), str("Only null was seen; the type is not known.")}
	case "integer":
		return []*yaml.Node{str("type"), str(t), str("format"), str("int64")}
	case "number":
		return []*yaml.Node{str("type"), str(t), str("format"), str("double")}
	case "array":
		return []*yaml.Node{str("type"), str(t), str("items"), raw}
	case "object":
		return []*yaml.Node{str("type"), str(t), str("additionalProperties"), raw}
	}
	return []*yaml.Node{str("type"), str(t)}
}

// observedMark is the x-observed of a changed schema: the source, after
// what it said before unless the change contradicts that.
func observedMark(at schemaAt, source string, replace bool) string {
	old := at.get("x-observed")
	switch {
	case replace || old == nil || strings.TrimSpace(old.Value) == "":
		return source
	case strings.Contains(old.Value, source):
		return old.Value
	}
	return old.Value + "; " + source
}

// enumNode is an enumeration value given as JSON, as a YAML scalar.
func enumNode(value json.RawMessage) (*yaml.Node, error) {
	dec := json.NewDecoder(bytes.NewReader(value))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("value %s: %w", value, err)
	}
	switch x := v.(type) {
	case string:
		return str(x), nil
	case bool:
		return boolean(x), nil
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: string(x)}, nil
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: string(x)}, nil
	}
	return nil, fmt.Errorf("value %s: an enumeration value must be a string, number or boolean", value)
}

func enumNodes(values []string) *yaml.Node {
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	for _, v := range values {
		n, _ := enumNode(json.RawMessage(v)) // checked when planned
		seq.Content = append(seq.Content, n)
	}
	return seq
}

// str is a string scalar; one that YAML 1.1 readers would take for a
// boolean (NO, on) is quoted, as the spec writes it.
func str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	switch strings.ToLower(s) {
	case "y", "yes", "n", "no", "on", "off":
		n.Style = yaml.SingleQuotedStyle
	}
	return n
}

func boolean(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(b)}
}

func refNode(ref string) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{str("$ref"), str(ref)}}
}

// valueOfKey is the value of key among mapping entries kv, nil if absent.
func valueOfKey(kv []*yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i].Value == key {
			return kv[i+1]
		}
	}
	return nil
}

func isTrue(n *yaml.Node) bool { return n != nil && n.Value == "true" }
