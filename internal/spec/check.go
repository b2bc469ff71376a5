package spec

import (
	"context"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// Problem is one broken rule of the spec.
type Problem struct {
	Rule    string // stable name of the rule: openapi, operation-id, snake-name, unique-name, ...
	Where   string // the operation, schema or reference concerned
	Line    int    // line in the spec file, 0 when unknown
	Message string
}

// String formats the problem as "line N: where: message (rule)".
func (p Problem) String() string {
	s := p.Where + ": " + p.Message + " (" + p.Rule + ")"
	if p.Line > 0 {
		s = "line " + strconv.Itoa(p.Line) + ": " + s
	}
	return s
}

// The rules Check applies, by their stable names.
const (
	RuleOpenAPI              = "openapi"               // kin-openapi loads and validates the document
	RuleRef                  = "ref"                   // every local $ref resolves
	RuleOperationID          = "operation-id"          // operationId is camelCase
	RuleSnakeName            = "snake-name"            // x-snake-case-name is snake_case
	RuleUniqueName           = "unique-name"           // names are unique and do not collide
	RuleExtension            = "extension"             // x-changes-state and x-paging are booleans
	RulePaging               = "paging"                // paged operations take skip and take
	RuleAsync                = "async"                 // x-async links name operations with the right roles
	RuleAdditionalProperties = "additional-properties" // object schemas declare additionalProperties
	RuleObserved             = "observed"              // x-observed is a one-line source, never beside a $ref
	RulePathParameter        = "path-parameter"        // path parameters and the path's {names} agree
	// RuleOneOf and RuleExample (strictcheck.go) read the spec as tools that
	// ignore the discriminator do.
)

var (
	camelCase = regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)
	snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
)

// Check loads the OpenAPI document at path and returns every broken rule:
// unresolved references, kin-openapi load and validation errors, the
// rules on names, extensions and schemas that CheckDocument applies, and
// the strict rules (a oneOf's variants told apart by their own schema,
// every response example valid under plain JSON Schema rules). The
// error is for a file that cannot be read or is not YAML or JSON.
func Check(path string) ([]Problem, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return CheckData(path, raw)
}

// CheckData is [Check] of a document already read; name says where it came
// from in errors and problems.
func CheckData(name string, raw []byte) ([]Problem, error) {
	top, err := ParseYAML(name, raw)
	if err != nil {
		return nil, err
	}
	problems := append(checkRefs(top), checkObserved(top)...)
	problems = append(problems, checkPathParams(top)...)
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		return append(problems, Problem{Rule: RuleOpenAPI, Where: name, Message: "loading: " + err.Error()}), nil
	}
	if err := doc.Validate(context.Background()); err != nil {
		problems = append(problems, Problem{Rule: RuleOpenAPI, Where: name, Message: "validating: " + err.Error()})
	}
	routeLines := OperationLines(top)
	lines := problemLines(doc, routeLines)
	for _, p := range checkDocument(doc, routeLines) {
		if p.Line == 0 {
			p.Line = lines[p.Where]
		}
		problems = append(problems, p)
	}
	return append(problems, checkStrict(raw, top)...), nil
}

// CheckDocument applies our rules to a loaded document: names, extensions,
// paging, job links and additionalProperties. Problems come in path order.
func CheckDocument(doc *openapi3.T) []Problem { return checkDocument(doc, nil) }

// checkDocument is CheckDocument of a document whose operations' lines are
// known ("METHOD /path" to line): of two operations that share a name, the
// one written later is reported, as the edit most likely to be new.
func checkDocument(doc *openapi3.T, routeLines map[string]int) []Problem {
	ops := documentOperations(doc)
	written := slices.Clone(ops)
	slices.SortStableFunc(written, func(a, b docOperation) int { return routeLines[a.route()] - routeLines[b.route()] })
	var problems []Problem
	problems = append(problems, checkNames(written)...)
	for _, o := range ops {
		problems = append(problems, checkExtensions(o)...)
		problems = append(problems, checkPaging(o)...)
	}
	problems = append(problems, checkAsync(ops)...)
	problems = append(problems, checkSchemas(doc, ops)...)
	return problems
}

// docOperation is an operation of a document with where it lives.
type docOperation struct {
	method, path string
	op           *openapi3.Operation
}

// where names the operation by its operationId, or by method and path.
func (o docOperation) where() string {
	if o.op.OperationID != "" {
		return o.op.OperationID
	}
	return o.method + " " + o.path
}

// route is the operation's method and path, "GET /open/scenario/list".
func (o docOperation) route() string { return o.method + " " + o.path }

func documentOperations(doc *openapi3.T) []docOperation {
	var ops []docOperation
	if doc.Paths == nil {
		return nil
	}
	for _, path := range sortedKeys(doc.Paths.Map()) {
		item := doc.Paths.Value(path)
		for _, method := range methodOrder {
			if o := item.GetOperation(method); o != nil {
				ops = append(ops, docOperation{method: method, path: path, op: o})
			}
		}
	}
	return ops
}

// problemLines maps what a Problem's Where can be, an operationId or
// "METHOD /path", to the operation's line.
func problemLines(doc *openapi3.T, routeLines map[string]int) map[string]int {
	lines := maps.Clone(routeLines)
	for _, o := range documentOperations(doc) {
		lines[o.where()] = routeLines[o.method+" "+o.path]
	}
	return lines
}

// checkNames reports names that are not camelCase or snake_case, and a name
// (in either style) that two operations share. Operations are told apart by
// method and path, so that two with the same operationId are found, and
// the second is reported by its method and path, which name its line.
func checkNames(ops []docOperation) []Problem {
	var problems []Problem
	owner := map[string]docOperation{} // name in either style -> operation that owns it
	claim := func(o docOperation, name, field string) {
		prev, ok := owner[name]
		switch {
		case !ok:
			owner[name] = o
		case prev.route() == o.route():
		case prev.op.OperationID == o.op.OperationID:
			problems = append(problems, Problem{Rule: RuleUniqueName, Where: o.route(),
				Message: fmt.Sprintf("%s %q is already used by operation %s (%s)", field, name, prev.where(), prev.route())})
		default:
			problems = append(problems, Problem{Rule: RuleUniqueName, Where: o.where(),
				Message: fmt.Sprintf("%s %q is already used by operation %s", field, name, prev.where())})
		}
	}
	for _, o := range ops {
		id := o.op.OperationID
		if !camelCase.MatchString(id) {
			problems = append(problems, Problem{Rule: RuleOperationID, Where: o.where(),
				Message: fmt.Sprintf("operationId %q is not camelCase", id)})
		}
		if id != "" {
			claim(o, id, "operationId")
		}
		snake, ok := o.op.Extensions["x-snake-case-name"].(string)
		if !ok || !snakeCase.MatchString(snake) {
			problems = append(problems, Problem{Rule: RuleSnakeName, Where: o.where(),
				Message: fmt.Sprintf("x-snake-case-name %v is missing or not snake_case", o.op.Extensions["x-snake-case-name"])})
			continue
		}
		claim(o, snake, "x-snake-case-name")
	}
	return problems
}

func checkExtensions(o docOperation) []Problem {
	var problems []Problem
	for _, name := range []string{"x-changes-state", "x-paging"} {
		if _, err := boolExt(o.op.Extensions, name, true); err != nil {
			problems = append(problems, Problem{Rule: RuleExtension, Where: o.where(), Message: err.Error()})
		}
	}
	return problems
}

func checkPaging(o docOperation) []Problem {
	paged, err := boolExt(o.op.Extensions, "x-paging", false)
	if err != nil {
		return nil // reported by checkExtensions
	}
	has := map[string]bool{}
	for _, p := range o.op.Parameters {
		if p.Value != nil {
			has[p.Value.Name] = true
		}
	}
	problem := func(msg string) []Problem {
		return []Problem{{Rule: RulePaging, Where: o.where(), Message: msg}}
	}
	switch {
	case paged && (!has["skip"] || !has["take"]):
		return problem("x-paging is true but the skip and take parameters are not both declared")
	case paged:
		if _, err := stringExt(o.op.Extensions, "x-paged-items"); err != nil {
			return problem("x-paging is true but " + err.Error())
		}
		if _, err := pagedItems(o); err != nil {
			return problem(err.Error())
		}
	case has["skip"] && has["take"]:
		return problem("takes skip and take but x-paging is false")
	}
	return nil
}

// checkAsync checks that every x-async link names an operation whose own
// x-async has the matching role and job id.
func checkAsync(ops []docOperation) []Problem {
	byID := map[string]docOperation{}
	for _, o := range ops {
		byID[o.op.OperationID] = o
	}
	var problems []Problem
	for _, o := range ops {
		raw, ok := o.op.Extensions["x-async"]
		if !ok {
			continue
		}
		a, err := asyncExt(raw)
		if err != nil {
			problems = append(problems, Problem{Rule: RuleAsync, Where: o.where(), Message: "x-async: " + err.Error()})
			continue
		}
		if a.Role != "start" {
			continue
		}
		problems = append(problems, checkAsyncLink(o, byID, "poll", a.Poll, a.ID)...)
		problems = append(problems, checkAsyncLink(o, byID, "cancel", a.Cancel, a.ID)...)
	}
	return problems
}

func checkAsyncLink(o docOperation, byID map[string]docOperation, role, target, id string) []Problem {
	problem := func(format string, args ...any) []Problem {
		return []Problem{{Rule: RuleAsync, Where: o.where(), Message: "x-async." + role + ": " + fmt.Sprintf(format, args...)}}
	}
	t, ok := byID[target]
	if !ok {
		return problem("%q names no operation", target)
	}
	a, err := asyncExt(t.op.Extensions["x-async"])
	switch {
	case err != nil || a.Role != role:
		return problem("operation %s does not have x-async role %s", target, role)
	case a.ID != id:
		return problem("operation %s takes job id %s, want %s", target, a.ID, id)
	}
	return nil
}

// checkRefs walks the raw document and reports every local $ref that does
// not resolve.
func checkRefs(root *yaml.Node) []Problem {
	var problems []Problem
	eachKey(root, "$ref", func(_, _, v *yaml.Node) {
		if v.Kind == yaml.ScalarNode && !resolves(root, v.Value) {
			problems = append(problems, Problem{Rule: RuleRef, Where: v.Value, Line: v.Line, Message: "reference does not resolve"})
		}
	})
	return problems
}

// checkObserved reports every x-observed that is not a one-line source:
// not a string, empty, spread over lines, or beside a $ref (where OpenAPI
// 3.0 ignores it).
func checkObserved(root *yaml.Node) []Problem {
	var problems []Problem
	eachKey(root, "x-observed", func(parent, k, v *yaml.Node) {
		if msg := observedProblem(parent, v); msg != "" {
			problems = append(problems, Problem{Rule: RuleObserved, Where: "x-observed", Line: k.Line, Message: msg})
		}
	})
	return problems
}

// eachKey calls fn for every mapping entry named key, at any depth, with the
// mapping, the key and the value.
func eachKey(n *yaml.Node, key string, fn func(parent, k, v *yaml.Node)) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				fn(n, n.Content[i], n.Content[i+1])
			}
		}
	}
	for _, c := range n.Content {
		eachKey(c, key, fn)
	}
}

func observedProblem(parent, v *yaml.Node) string {
	switch {
	case v.Kind != yaml.ScalarNode || v.Tag != "!!str":
		return "must be a string naming the observation's source"
	case strings.TrimSpace(v.Value) == "":
		return "must not be empty"
	case strings.Contains(strings.TrimSpace(v.Value), "\n"):
		return "must be one line"
	case MappingValue(parent, "$ref") != nil:
		return "sits beside a $ref, where OpenAPI 3.0 ignores it: mark the property's model or the operation instead"
	}
	return ""
}

// resolves reports whether a local JSON pointer reference names a node of
// root. References to other documents are not followed.
func resolves(root *yaml.Node, ref string) bool {
	if !strings.HasPrefix(ref, "#") {
		return true
	}
	n := root
	for _, tok := range strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:] {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if n = child(n, tok); n == nil {
			return false
		}
	}
	return true
}

func child(n *yaml.Node, tok string) *yaml.Node {
	switch n.Kind {
	case yaml.MappingNode:
		return MappingValue(n, tok)
	case yaml.SequenceNode:
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(n.Content) {
			return nil
		}
		return n.Content[i]
	}
	return nil
}

// checkSchemas reports every object schema, in components or inline at any
// depth, that does not declare additionalProperties.
func checkSchemas(doc *openapi3.T, ops []docOperation) []Problem {
	var problems []Problem
	w := schemaWalker{seen: map[*openapi3.Schema]bool{}, visit: func(where string, s *openapi3.Schema) {
		isObject := s.Type.Is("object") || len(s.Properties) > 0
		if isObject && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
			problems = append(problems, Problem{Rule: RuleAdditionalProperties, Where: where,
				Message: "object schema does not declare additionalProperties"})
		}
	}}
	w.document(doc, ops)
	return problems
}

// schemaWalker visits each schema of a document once, so recursive schemas
// end, with where it was first met.
type schemaWalker struct {
	seen  map[*openapi3.Schema]bool
	visit func(where string, s *openapi3.Schema)
}

// document walks the components, then the operations ops.
func (w *schemaWalker) document(doc *openapi3.T, ops []docOperation) {
	if doc.Components != nil {
		w.components(doc.Components)
	}
	for _, o := range ops {
		w.operation(o)
	}
}

func (w *schemaWalker) components(c *openapi3.Components) {
	for _, name := range sortedKeys(c.Schemas) {
		w.walk("components.schemas."+name, c.Schemas[name])
	}
	for _, name := range sortedKeys(c.Parameters) {
		w.parameter("components.parameters."+name, c.Parameters[name])
	}
	for _, name := range sortedKeys(c.RequestBodies) {
		if rb := c.RequestBodies[name]; rb != nil && rb.Value != nil {
			w.content("components.requestBodies."+name, rb.Value.Content)
		}
	}
	for _, name := range sortedKeys(c.Responses) {
		if r := c.Responses[name]; r != nil && r.Value != nil {
			w.content("components.responses."+name, r.Value.Content)
		}
	}
}

func (w *schemaWalker) operation(o docOperation) {
	for i, p := range o.op.Parameters {
		w.parameter(fmt.Sprintf("%s parameters[%d]", o.where(), i), p)
	}
	if rb := o.op.RequestBody; rb != nil && rb.Value != nil {
		w.content(o.where()+" requestBody", rb.Value.Content)
	}
	if o.op.Responses == nil {
		return
	}
	for _, status := range sortedKeys(o.op.Responses.Map()) {
		if r := o.op.Responses.Value(status); r != nil && r.Value != nil {
			w.content(o.where()+" responses."+status, r.Value.Content)
		}
	}
}

func (w *schemaWalker) parameter(where string, p *openapi3.ParameterRef) {
	if p != nil && p.Value != nil {
		w.walk(where+" "+p.Value.Name, p.Value.Schema)
	}
}

func (w *schemaWalker) content(where string, c openapi3.Content) {
	for _, mt := range sortedKeys(c) {
		if c[mt] != nil {
			w.walk(where+" "+mt, c[mt].Schema)
		}
	}
}

func (w *schemaWalker) walk(where string, ref *openapi3.SchemaRef) {
	if ref == nil || ref.Value == nil || w.seen[ref.Value] {
		return
	}
	s := ref.Value
	w.seen[s] = true
	w.visit(where, s)
	for _, name := range sortedKeys(s.Properties) {
		w.walk(where+".properties."+name, s.Properties[name])
	}
	w.walk(where+".items", s.Items)
	w.walk(where+".additionalProperties", s.AdditionalProperties.Schema)
	w.walk(where+".not", s.Not)
	w.each(where+".allOf", s.AllOf)
	w.each(where+".anyOf", s.AnyOf)
	w.each(where+".oneOf", s.OneOf)
}

func (w *schemaWalker) each(where string, list openapi3.SchemaRefs) {
	for i, sub := range list {
		w.walk(fmt.Sprintf("%s[%d]", where, i), sub)
	}
}
