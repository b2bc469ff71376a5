package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/scmodel/scmgo/internal/spec"
)

// parseOpenAPI reads an OpenAPI 3.x or Swagger 2.0 document, JSON or YAML,
// into l. Swagger 2.0 is converted to OpenAPI 3 before it is read. l.Format
// becomes the format with its version, e.g. openapi-3.0.3 or swagger-2.0.
func parseOpenAPI(l *Listing, data []byte) error {
	root, err := parseYAML(l.Source, data)
	if err != nil {
		return err
	}
	doc, format, err := loadDocument(l.Source, root, data)
	if err != nil {
		return err
	}
	l.Format, l.doc, l.Entries = format, doc, documentEntries(doc, spec.OperationLines(root))
	return nil
}

var yamlLine = regexp.MustCompile(`line (\d+): (.*)`)

// parseYAML parses data (JSON is YAML) and names the line of a syntax error.
func parseYAML(src string, data []byte) (*yaml.Node, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			n, _ := strconv.Atoi(m[1])
			return nil, lineError(src, n, "%s", m[2])
		}
		return nil, lineError(src, 1, "%v", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, lineError(src, max(root.Line, 1), "not an OpenAPI document: want a mapping with an openapi or swagger key")
	}
	return root.Content[0], nil
}

func loadDocument(src string, root *yaml.Node, data []byte) (*openapi3.T, string, error) {
	if v := spec.MappingValue(root, "swagger"); v != nil {
		doc, err := loadSwagger(src, root)
		return doc, "swagger-" + v.Value, err
	}
	v := spec.MappingValue(root, "openapi")
	if v == nil {
		return nil, "", lineError(src, root.Line, "not an OpenAPI document: no openapi or swagger key")
	}
	if !strings.HasPrefix(v.Value, "3.") {
		return nil, "", lineError(src, v.Line, "openapi version %q: want 3.x", v.Value)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: loading OpenAPI %s: %w", src, v.Value, err)
	}
	return doc, "openapi-" + v.Value, nil
}

func loadSwagger(src string, root *yaml.Node) (*openapi3.T, error) {
	var tree any
	if err := root.Decode(&tree); err != nil {
		return nil, lineError(src, root.Line, "%v", err)
	}
	raw, err := json.Marshal(jsonCompatible(tree))
	if err != nil {
		return nil, fmt.Errorf("%s: reading Swagger 2.0: %w", src, err)
	}
	var doc2 openapi2.T
	if err := json.Unmarshal(raw, &doc2); err != nil {
		return nil, fmt.Errorf("%s: reading Swagger 2.0: %w", src, err)
	}
	doc, err := openapi2conv.ToV3(&doc2)
	if err != nil {
		return nil, fmt.Errorf("%s: converting Swagger 2.0: %w", src, err)
	}
	if err := openapi3.NewLoader().ResolveRefsIn(doc, nil); err != nil {
		return nil, fmt.Errorf("%s: resolving Swagger 2.0 references: %w", src, err)
	}
	return doc, nil
}

// jsonCompatible turns the maps YAML decodes (keys of any type, such as
// unquoted response codes) into maps with string keys.
func jsonCompatible(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = jsonCompatible(e)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[fmt.Sprint(k)] = jsonCompatible(e)
		}
		return m
	case []any:
		for i, e := range t {
			t[i] = jsonCompatible(e)
		}
	}
	return v
}

// documentEntries lists the operations of a document in line order.
func documentEntries(doc *openapi3.T, lines map[string]int) []Entry {
	var entries []Entry
	if doc.Paths == nil {
		return nil
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			m := strings.ToUpper(method)
			entries = append(entries, Entry{
				Name: op.OperationID, Method: m, Path: normalizePath(path),
				Line: lines[m+" "+path], Details: operationDetails(doc, item, op), op: op,
			})
		}
	}
	sort.Slice(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Method+" "+a.Path < b.Method+" "+b.Path
	})
	return entries
}
