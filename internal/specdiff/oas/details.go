package oas

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/scmodel/scmgo/internal/spec"
)

// Details is what an OpenAPI document says about one operation beyond its
// name, method and path: what specdiff compares of a listing's operation.
type Details struct {
	Params        []Param // in declaration order, path-item parameters first
	RequestTypes  []string
	ResponseTypes []string
	Security      string // the effective requirement, schemes described; "none" when empty
}

// Param is a parameter reduced to what is compared.
type Param struct {
	Name, In string
	Type     string // type and format (spec.TypeName); "unspecified" without a schema
	Default  string // as JSON; "" when none
	Required bool
	Enum     []string // of the items of an array
}

// OperationDetails is what doc says of op, an operation of path item
// item.
func OperationDetails(doc *openapi3.T, item *openapi3.PathItem, op *openapi3.Operation) *Details {
	d := &Details{
		RequestTypes:  requestTypes(op),
		ResponseTypes: responseTypes(op),
		Security:      securityOf(doc, op),
	}
	seen := map[string]bool{}
	for _, list := range []openapi3.Parameters{op.Parameters, item.Parameters} {
		for _, ref := range list {
			if ref == nil || ref.Value == nil || seen[ref.Value.In+" "+ref.Value.Name] {
				continue
			}
			seen[ref.Value.In+" "+ref.Value.Name] = true
			d.Params = append(d.Params, paramOf(ref.Value))
		}
	}
	return d
}

func paramOf(p *openapi3.Parameter) Param {
	out := Param{Name: p.Name, In: p.In, Required: p.Required, Type: "unspecified"}
	if p.Schema == nil || p.Schema.Value == nil {
		return out
	}
	s := p.Schema.Value
	out.Type = spec.TypeName(s)
	if s.Default != nil {
		b, _ := json.Marshal(s.Default)
		out.Default = string(b)
	}
	if s.Type.Is("array") && s.Items != nil && s.Items.Value != nil {
		s = s.Items.Value
	}
	for _, v := range s.Enum {
		out.Enum = append(out.Enum, fmt.Sprint(v))
	}
	return out
}

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

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
