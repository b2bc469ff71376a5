package main

import (
	"fmt"
	"path/filepath"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/scmodel/scmgo/internal/spec"
	"gopkg.in/yaml.v3"
)

// Spec is our spec, indexed for matching.
type Spec struct {
	Path      string
	doc       *openapi3.T
	models    models
	Ops       []spec.Operation
	byName    map[string]int // operationId and x-snake-case-name -> index in Ops
	byRoute   map[string]int // "METHOD /path" -> index in Ops
	details   []*details
	lines     []int
	omissions map[string]bool // operationIds named in the known-omissions file
}

// loadSpec loads and validates the spec at path and indexes its operations
// by both names and by route.
func loadSpec(path string) (*Spec, error) {
	doc, err := spec.Load(path)
	if err != nil {
		return nil, err
	}
	ops, err := spec.Operations(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	_, top, err := spec.ReadYAML(path)
	if err != nil {
		return nil, err
	}
	lines := spec.OperationLines(top)
	s := &Spec{Path: path, doc: doc, models: modelsOf(doc), Ops: ops, byName: map[string]int{}, byRoute: map[string]int{}, omissions: map[string]bool{}}
	for i, op := range ops {
		s.byName[op.ID], s.byName[op.SnakeName] = i, i
		s.byRoute[op.Method+" "+op.Path] = i
		item := doc.Paths.Value(op.Path)
		s.details = append(s.details, operationDetails(doc, item, item.GetOperation(op.Method)))
		s.lines = append(s.lines, lines[op.Method+" "+op.Path])
	}
	return s, nil
}

// at is the place of the i-th operation in the spec file.
func (s *Spec) at(i int) location { return location{file: s.Path, line: s.lines[i]} }

// omissionsFile is where the known-omissions list lives by default: next to
// the spec.
func omissionsFile(specPath string) string {
	return filepath.Join(filepath.Dir(specPath), "known-omissions.yaml")
}

// loadOmissions reads the reviewed list of operations that some listings
// omit. Every name must be a spec operation, in either style.
func (s *Spec) loadOmissions(path string) error {
	_, top, err := spec.ReadYAML(path)
	if err != nil {
		return fmt.Errorf("known omissions: %w", err)
	}
	list := spec.MappingValue(top, "omissions")
	if list == nil || list.Kind != yaml.SequenceNode {
		return fmt.Errorf("%s: want a list under the key omissions", path)
	}
	for _, n := range list.Content {
		i, ok := s.byName[n.Value]
		if !ok || n.Kind != yaml.ScalarNode {
			return fmt.Errorf("%s:%d: %q is not an operation of %s", path, n.Line, n.Value, s.Path)
		}
		s.omissions[s.Ops[i].ID] = true
	}
	return nil
}
