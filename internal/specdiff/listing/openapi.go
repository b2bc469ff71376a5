package listing

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
	"github.com/scmodel/scmgo/internal/specdiff/oas"
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
	l.Format, l.Doc, l.Entries = format, doc, documentEntries(doc, spec.OperationLines(root))
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

// loadSwagger converts a Swagger 2.0 document to OpenAPI 3. A null where
// the document needs a value is refused with its line (the converter
// cannot take one), and the converter is never trusted not to panic on
// what it is given: a panic is an error naming the document.
func loadSwagger(src string, root *yaml.Node) (doc *openapi3.T, err error) {
	if err := refuseNulls(src, root, ""); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, fmt.Errorf("%s: converting Swagger 2.0: the document is malformed: %v", src, r)
		}
	}()
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
	doc, err = openapi2conv.ToV3(&doc2)
	if err != nil {
		return nil, fmt.Errorf("%s: converting Swagger 2.0: %w", src, err)
	}
	if err := openapi3.NewLoader().ResolveRefsIn(doc, nil); err != nil {
		return nil, fmt.Errorf("%s: resolving Swagger 2.0 references: %w", src, err)
	}
	return doc, nil
}

// refuseNulls returns an error naming the line of the first null value in
// the tree below n (at path), but where a null is a value the document
// describes: under default, example, examples, enum, const and extensions
// (x-...).
func refuseNulls(src string, n *yaml.Node, path string) error {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, value := n.Content[i].Value, n.Content[i+1]
			if nullsAllowed(key) {
				continue
			}
			if err := refuseNulls(src, value, joinPath(path, key)); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			if err := refuseNulls(src, item, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return lineError(src, n.Line, "%s is null: want a value", path)
		}
	}
	return nil
}

func nullsAllowed(key string) bool {
	switch key {
	case "default", "example", "examples", "enum", "const":
		return true
	}
	return strings.HasPrefix(key, "x-")
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
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
				Name: op.OperationID, Method: m, Path: NormalizePath(path),
				Line: lines[m+" "+path], Details: oas.OperationDetails(doc, item, op), Op: op,
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
