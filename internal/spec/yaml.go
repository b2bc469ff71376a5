package spec

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// httpMethods are the keys of a path item that name operations.
var httpMethods = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE", "CONNECT"}

// ReadYAML reads the YAML (or JSON) document at path as a node tree and
// returns its bytes and its top-level node. kin-openapi does not keep where
// things are written; the node tree does.
func ReadYAML(path string) ([]byte, *yaml.Node, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	top, err := ParseYAML(path, raw)
	return raw, top, err
}

// ParseYAML is [ReadYAML] of a document already read; name says where it
// came from in errors.
func ParseYAML(name string, raw []byte) (*yaml.Node, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(root.Content) == 0 {
		return nil, fmt.Errorf("reading %s: empty document", name)
	}
	return root.Content[0], nil
}

// MappingValue returns the value of key in the mapping n, or nil when n is
// not a mapping or has no such key.
func MappingValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// OperationLines maps "METHOD /path" (method in upper case) of every
// operation of a document's top-level node to the line of its method key.
func OperationLines(top *yaml.Node) map[string]int {
	lines := map[string]int{}
	paths := MappingValue(top, "paths")
	if paths == nil || paths.Kind != yaml.MappingNode {
		return lines
	}
	for i := 0; i+1 < len(paths.Content); i += 2 {
		item := paths.Content[i+1]
		for j := 0; item.Kind == yaml.MappingNode && j+1 < len(item.Content); j += 2 {
			method := strings.ToUpper(item.Content[j].Value)
			if slices.Contains(httpMethods, method) {
				lines[method+" "+paths.Content[i].Value] = item.Content[j].Line
			}
		}
	}
	return lines
}
