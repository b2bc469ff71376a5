package spec

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// pathTemplate matches the {name} parts of a path.
var pathTemplate = regexp.MustCompile(`\{([^{}/]+)\}`)

// checkPathParams reports, on the written document, a parameter declared
// "in: path" whose name the path lacks, and a {name} of the path that an
// operation does not declare as a path parameter. It works on the YAML
// nodes, so each problem names its line even where kin-openapi refuses the
// document without one.
func checkPathParams(top *yaml.Node) []Problem {
	paths := MappingValue(top, "paths")
	if paths == nil || paths.Kind != yaml.MappingNode {
		return nil
	}
	var problems []Problem
	for i := 0; i+1 < len(paths.Content); i += 2 {
		path, item := paths.Content[i].Value, paths.Content[i+1]
		shared := pathParams(top, MappingValue(item, "parameters"))
		for j := 0; item.Kind == yaml.MappingNode && j+1 < len(item.Content); j += 2 {
			method := strings.ToUpper(item.Content[j].Value)
			if !slices.Contains(httpMethods, method) {
				continue
			}
			own := pathParams(top, MappingValue(item.Content[j+1], "parameters"))
			where := method + " " + path
			problems = append(problems, checkRoute(where, item.Content[j].Line, path, append(shared, own...))...)
		}
	}
	return problems
}

// pathParam is a parameter declared in: path, with the line of its name.
type pathParam struct {
	name string
	line int
}

// pathParams lists the path parameters of a parameters sequence, following
// local references to components.parameters.
func pathParams(top, list *yaml.Node) []pathParam {
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	var out []pathParam
	for _, p := range list.Content {
		refLine := 0 // a referenced parameter is reported where it is referenced
		if ref := MappingValue(p, "$ref"); ref != nil {
			refLine, p = ref.Line, resolveRef(top, ref.Value)
		}
		in, name := MappingValue(p, "in"), MappingValue(p, "name")
		if in == nil || in.Value != "path" || name == nil {
			continue
		}
		out = append(out, pathParam{name: name.Value, line: cmp.Or(refLine, name.Line)})
	}
	return out
}

// resolveRef returns the node a local reference names, or nil.
func resolveRef(root *yaml.Node, ref string) *yaml.Node {
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	n := root
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if n = child(n, tok); n == nil {
			return nil
		}
	}
	return n
}

// checkRoute compares one operation's path parameters with its path.
func checkRoute(where string, line int, path string, params []pathParam) []Problem {
	var problems []Problem
	var declared []string
	for _, p := range params {
		declared = append(declared, p.name)
		if !strings.Contains(path, "{"+p.name+"}") {
			problems = append(problems, Problem{Rule: RulePathParameter, Where: where, Line: p.line,
				Message: fmt.Sprintf("parameter %q is declared in: path, but the path has no {%s}: declare it in: query, or add {%s} to the path", p.name, p.name, p.name)})
		}
	}
	for _, m := range pathTemplate.FindAllStringSubmatch(path, -1) {
		if !slices.Contains(declared, m[1]) {
			problems = append(problems, Problem{Rule: RulePathParameter, Where: where, Line: line,
				Message: fmt.Sprintf("the path has {%s} but the operation declares no path parameter %q", m[1], m[1])})
		}
	}
	return problems
}
