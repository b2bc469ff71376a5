package overlay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/internal/specdiff/oas"
	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// overlayKinds are the finding kinds specdiff overlay turns into spec
// changes; it notes and skips the others.
var overlayKinds = []string{"probe-unknown-field", "probe-missing", "probe-null", "probe-renamed", "probe-type", "probe-enum"}

// overlayPlan gathers what the findings ask of each schema of the spec,
// merged: a property seen with several JSON types, several values of one
// enumeration, several required fields of one model are one change each.
type overlayPlan struct {
	tree    *specTree
	changes map[string]*change // by the schema's JSONPath
	notes   []string           // findings skipped, and why
	used    int                // findings turned into changes
	touched bool               // the finding being planned changed something
}

// change is what the overlay does to one schema.
type change struct {
	at        schemaAt
	retype    map[string]bool            // the JSON types answers had where the spec says another type or format
	nullable  bool                       // answers had null
	unrequire []string                   // required properties answers lacked
	props     map[string]map[string]bool // properties answers had that the schema lacks, with their JSON types
	enum      []string                   // values (as JSON) outside the enumeration
	why       []string                   // the findings' "operation: detail", in order
}

func newOverlayPlan(t *specTree) *overlayPlan {
	return &overlayPlan{tree: t, changes: map[string]*change{}}
}

func (p *overlayPlan) change(at schemaAt, f report.Finding) *change {
	c := p.changes[at.path]
	if c == nil {
		c = &change{at: at, retype: map[string]bool{}, props: map[string]map[string]bool{}}
		p.changes[at.path] = c
	}
	p.touched = true
	if why := f.Operation + ": " + f.Detail; !slices.Contains(c.why, why) {
		c.why = append(c.why, why)
	}
	return c
}

func (p *overlayPlan) note(f report.Finding, format string, args ...any) {
	where := f.Kind
	if f.Path != "" {
		where += " " + f.Path
	}
	p.notes = append(p.notes, fmt.Sprintf("%s (%s): ", where, f.Operation)+fmt.Sprintf(format, args...))
}

// add plans the change one finding asks for, or notes why it does not.
func (p *overlayPlan) add(f report.Finding) {
	if !f.Drift {
		return
	}
	if !slices.Contains(overlayKinds, f.Kind) {
		p.note(f, "not a difference of schemas an overlay fixes; change the spec by hand")
		return
	}
	root, tokens := findingPlace(f)
	if root == "" {
		p.note(f, "the finding names no model or property path")
		return
	}
	s, err := p.tree.root(root)
	if err != nil {
		p.note(f, "%v", err)
		return
	}
	p.touched = false
	switch f.Kind {
	case "probe-unknown-field":
		p.addProperty(f, s, tokens, f.JSONType)
	case "probe-missing":
		p.unrequire(f, s, tokens)
	case "probe-renamed":
		p.unrequire(f, s, tokens)
		p.addRenamed(f, s, tokens)
	case "probe-null":
		p.nullable(f, s, tokens)
	case "probe-type":
		p.retype(f, s, tokens)
	case "probe-enum":
		p.enumValue(f, s, tokens)
	}
	if p.touched {
		p.used++
	}
}

// findingPlace is where a finding points: the root of its path (a model,
// or an operation's response) and the property path below it as tokens.
// The structured fields win over the path when they are there.
func findingPlace(f report.Finding) (root string, tokens []string) {
	model, property := drift.SplitPath(f.Path)
	root = model
	if root == "" {
		root, _, _ = strings.Cut(strings.SplitN(f.Path, "[", 2)[0], ".")
	}
	if f.Model != "" || f.Property != "" {
		property = f.Property
	}
	if f.Model != "" {
		root = f.Model
	}
	return root, propertyTokens(property)
}

// parentOf splits tokens into the path of the object that holds the last
// property and its name; ok is false when the last token is not a name.
func parentOf(tokens []string) (parent []string, name string, ok bool) {
	if len(tokens) == 0 || tokens[len(tokens)-1] == "[]" {
		return nil, "", false
	}
	return tokens[:len(tokens)-1], tokens[len(tokens)-1], true
}

// object is the object schema that holds the property tokens end with.
func (p *overlayPlan) object(f report.Finding, s schemaAt, tokens []string) (schemaAt, string, bool) {
	parent, name, ok := parentOf(tokens)
	if !ok {
		p.note(f, "the path does not end in a property")
		return s, "", false
	}
	obj, err := p.tree.walk(s, parent)
	if err == nil {
		obj, err = p.tree.deref(obj)
	}
	if err != nil {
		p.note(f, "%v", err)
		return obj, "", false
	}
	return obj, name, true
}

func (p *overlayPlan) addProperty(f report.Finding, s schemaAt, tokens []string, jsonType string) {
	if jsonType == "" {
		p.note(f, "the finding does not say the field's JSON type (jsonType)")
		return
	}
	obj, name, ok := p.object(f, s, tokens)
	switch {
	case !ok:
	case obj.child("properties").get(name) != nil:
		p.note(f, "%s already has %s", obj.path, name)
	default:
		c := p.change(obj, f)
		if c.props[name] == nil {
			c.props[name] = map[string]bool{}
		}
		c.props[name][jsonType] = true
	}
}

func (p *overlayPlan) addRenamed(f report.Finding, s schemaAt, tokens []string) {
	parent, _, ok := parentOf(tokens)
	if !ok {
		return
	}
	if f.RenamedTo == "" {
		p.note(f, "the finding does not name the field that took the property's place (renamedTo): only the property is made optional")
		return
	}
	p.addProperty(f, s, append(slices.Clone(parent), f.RenamedTo), f.JSONType)
}

func (p *overlayPlan) unrequire(f report.Finding, s schemaAt, tokens []string) {
	obj, name, ok := p.object(f, s, tokens)
	switch {
	case !ok:
	case !hasString(obj.get("required"), name):
		p.note(f, "%s does not require %s", obj.path, name)
	default:
		c := p.change(obj, f)
		if !slices.Contains(c.unrequire, name) {
			c.unrequire = append(c.unrequire, name)
		}
	}
}

func (p *overlayPlan) property(f report.Finding, s schemaAt, tokens []string) (schemaAt, bool) {
	if len(tokens) == 0 {
		p.note(f, "the finding is about a whole model or response, not a property: change the spec by hand")
		return s, false
	}
	prop, err := p.tree.walk(s, tokens)
	if err != nil {
		p.note(f, "%v", err)
		return prop, false
	}
	return prop, true
}

func (p *overlayPlan) nullable(f report.Finding, s schemaAt, tokens []string) {
	prop, ok := p.property(f, s, tokens)
	switch {
	case !ok:
	case isTrue(prop.get("nullable")):
		p.note(f, "%s is already nullable", prop.path)
	default:
		p.change(prop, f).nullable = true
	}
}

func (p *overlayPlan) retype(f report.Finding, s schemaAt, tokens []string) {
	if f.JSONType == "" {
		p.note(f, "the finding does not say the answer's JSON type (jsonType)")
		return
	}
	prop, ok := p.property(f, s, tokens)
	switch {
	case !ok:
	case p.typed(prop, f.JSONType):
		p.note(f, "%s is already %s", prop.path, f.JSONType)
	default:
		p.change(prop, f).retype[f.JSONType] = true
	}
}

// typed reports whether a property already is what the overlay would make
// it for a JSON type: an earlier overlay fixed it.
func (p *overlayPlan) typed(prop schemaAt, jsonType string) bool {
	if t := prop.get("type"); t == nil || prop.get("$ref") != nil || !oas.CompatibleJSONType(t.Value, jsonType) {
		return false
	}
	want := valueOfKey(p.schemaKV(prop.get("type").Value), "format")
	got := prop.get("format")
	return (want == nil && got == nil) || (want != nil && got != nil && want.Value == got.Value)
}

func (p *overlayPlan) enumValue(f report.Finding, s schemaAt, tokens []string) {
	if len(f.Value) == 0 {
		p.note(f, "the finding does not give the value (value)")
		return
	}
	at, err := p.tree.walk(s, tokens)
	if err == nil {
		at, err = p.tree.deref(at)
	}
	switch {
	case err != nil:
		p.note(f, "%v", err)
	case at.get("enum") == nil:
		p.note(f, "%s has no enum", at.path)
	default:
		n, err := enumNode(f.Value)
		if err != nil {
			p.note(f, "%v", err)
			return
		}
		if hasString(at.get("enum"), n.Value) {
			p.note(f, "%s already allows %s", at.path, f.Value)
			return
		}
		c := p.change(at, f)
		var v bytes.Buffer
		if json.Compact(&v, f.Value) == nil && !slices.Contains(c.enum, v.String()) {
			c.enum = append(c.enum, v.String())
		}
	}
}

// sorted are the changes in JSONPath order.
func (p *overlayPlan) sorted() []*change {
	var out []*change
	for _, k := range slices.Sorted(maps.Keys(p.changes)) {
		out = append(out, p.changes[k])
	}
	return out
}
