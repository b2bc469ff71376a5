package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/scmodel/scmgo/internal/spec"
)

// details is what an OpenAPI document says about one operation beyond its
// name, method and path.
type details struct {
	params        []param // in declaration order, path-item parameters first
	requestTypes  []string
	responseTypes []string
	security      string // the effective requirement, schemes described; "none" when empty
}

// param is a parameter reduced to what is compared.
type param struct {
	name, in, typ, def string
	required           bool
	enum               []string
}

func operationDetails(doc *openapi3.T, item *openapi3.PathItem, op *openapi3.Operation) *details {
	d := &details{
		requestTypes:  requestTypes(op),
		responseTypes: responseTypes(op),
		security:      securityOf(doc, op),
	}
	seen := map[string]bool{}
	for _, list := range []openapi3.Parameters{op.Parameters, item.Parameters} {
		for _, ref := range list {
			if ref == nil || ref.Value == nil || seen[ref.Value.In+" "+ref.Value.Name] {
				continue
			}
			seen[ref.Value.In+" "+ref.Value.Name] = true
			d.params = append(d.params, paramOf(ref.Value))
		}
	}
	return d
}

func paramOf(p *openapi3.Parameter) param {
	out := param{name: p.Name, in: p.In, required: p.Required, typ: "unspecified"}
	if p.Schema == nil || p.Schema.Value == nil {
		return out
	}
	s := p.Schema.Value
	out.typ = typeName(s)
	if s.Default != nil {
		b, _ := json.Marshal(s.Default)
		out.def = string(b)
	}
	if s.Type.Is("array") && s.Items != nil && s.Items.Value != nil {
		s = s.Items.Value
	}
	for _, v := range s.Enum {
		out.enum = append(out.enum, fmt.Sprint(v))
	}
	return out
}

// typeName is a schema's type and format: integer/int64, array of string.
var typeName = spec.TypeName

func requestTypes(op *openapi3.Operation) []string {
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return nil
	}
	return sortedKeys(op.RequestBody.Value.Content)
}

// responseTypes lists the media types of the success response: 200, else
// the first other 2XX, else default.
func responseTypes(op *openapi3.Operation) []string {
	if op.Responses == nil {
		return nil
	}
	var codes []string
	for _, code := range sortedKeys(op.Responses.Map()) {
		if strings.HasPrefix(code, "2") {
			codes = append(codes, code)
		}
	}
	slices.SortStableFunc(codes, func(a, b string) int { return boolRank(a != "200") - boolRank(b != "200") })
	codes = append(codes, "default")
	for _, code := range codes {
		if r := op.Responses.Value(code); r != nil && r.Value != nil {
			return sortedKeys(r.Value.Content)
		}
	}
	return nil
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// securityOf describes the operation's effective security requirement:
// alternatives joined by " or ", schemes of one alternative by " and ",
// each with its definition, e.g. "ApiKey (apiKey in header Authorization)".
func securityOf(doc *openapi3.T, op *openapi3.Operation) string {
	reqs := doc.Security
	if op.Security != nil {
		reqs = *op.Security
	}
	var alts []string
	for _, req := range reqs {
		var schemes []string
		for _, name := range sortedKeys(req) {
			schemes = append(schemes, name+" ("+schemeOf(doc, name)+")")
		}
		alts = append(alts, strings.Join(schemes, " and "))
	}
	sort.Strings(alts)
	if len(alts) == 0 || (len(alts) == 1 && alts[0] == "") {
		return "none"
	}
	return strings.Join(alts, " or ")
}

func schemeOf(doc *openapi3.T, name string) string {
	if doc.Components == nil || doc.Components.SecuritySchemes[name] == nil || doc.Components.SecuritySchemes[name].Value == nil {
		return "undefined"
	}
	s := doc.Components.SecuritySchemes[name].Value
	switch s.Type {
	case "apiKey":
		return "apiKey in " + s.In + " " + s.Name
	case "http":
		return "http " + s.Scheme
	}
	return s.Type
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// compareDetails reports how a listing's operation differs from the spec's.
func compareDetails(id string, spec, listed *details, at location) []Finding {
	var out []Finding
	add := func(k, format string, args ...any) {
		out = append(out, newFinding(k, id, fmt.Sprintf(format, args...), at))
	}
	for _, sp := range spec.params {
		lp, ok := findParam(listed.params, sp.name)
		if !ok {
			add("param-missing", "parameter %s (%s, %s) is not in the listing", sp.name, sp.in, requiredWord(sp.required))
			continue
		}
		compareParam(add, sp, lp)
	}
	for _, lp := range listed.params {
		if _, ok := findParam(spec.params, lp.name); !ok {
			add("param-extra", "parameter %s (%s, %s) is not in the spec", lp.name, lp.in, requiredWord(lp.required))
		}
	}
	if !slices.Equal(spec.requestTypes, listed.requestTypes) {
		add("request-media-type", "request body %s; listing has %s", mediaList(spec.requestTypes), mediaList(listed.requestTypes))
	}
	if !slices.Equal(spec.responseTypes, listed.responseTypes) {
		add("response-media-type", "response %s; listing has %s", mediaList(spec.responseTypes), mediaList(listed.responseTypes))
	}
	if spec.security != listed.security {
		add("security", "security %s; listing has %s", spec.security, listed.security)
	}
	return out
}

func compareParam(add func(k, format string, args ...any), sp, lp param) {
	if sp.in != lp.in {
		add("param-location", "parameter %s is in %s; listing has %s", sp.name, sp.in, lp.in)
	}
	if sp.required != lp.required {
		add("param-required", "parameter %s is %s; listing has %s", sp.name, requiredWord(sp.required), requiredWord(lp.required))
	}
	if sp.typ != lp.typ {
		add("param-type", "parameter %s is %s; listing has %s", sp.name, sp.typ, lp.typ)
	}
	if sp.def != lp.def {
		add("param-default", "parameter %s defaults to %s; listing has %s", sp.name, orNone(sp.def), orNone(lp.def))
	}
	if added := without(lp.enum, sp.enum); len(added) > 0 && len(sp.enum) > 0 {
		add("enum-added", "parameter %s: listing allows %s, which the spec does not", sp.name, strings.Join(added, ", "))
	}
	if removed := without(sp.enum, lp.enum); len(removed) > 0 && len(lp.enum) > 0 {
		add("enum-removed", "parameter %s: listing lacks %s", sp.name, strings.Join(removed, ", "))
	}
	switch {
	case len(sp.enum) > 0 && len(lp.enum) == 0:
		add("enum-removed", "parameter %s: listing has no enumeration; spec allows %s", sp.name, strings.Join(sp.enum, ", "))
	case len(sp.enum) == 0 && len(lp.enum) > 0:
		add("enum-added", "parameter %s: listing restricts it to %s; spec has no enumeration", sp.name, strings.Join(lp.enum, ", "))
	}
}

func findParam(ps []param, name string) (param, bool) {
	for _, p := range ps {
		if p.name == name {
			return p, true
		}
	}
	return param{}, false
}

// without returns the values of a that b lacks.
func without(a, b []string) []string {
	var out []string
	for _, v := range a {
		if !slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}

func requiredWord(required bool) string {
	if required {
		return "required"
	}
	return "optional"
}

func orNone(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

func mediaList(types []string) string {
	if len(types) == 0 {
		return "none"
	}
	return strings.Join(types, ", ")
}
