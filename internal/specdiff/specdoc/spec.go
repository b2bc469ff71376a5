package specdoc

import (
	"fmt"
	"net/url"
	"path/filepath"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/scmodel/scmgo/api"
	"github.com/scmodel/scmgo/internal/spec"
	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/oas"
	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// The embedded documents: specdiff carries the spec it was built from, so an
// installed binary works anywhere. Findings about them point into the
// repository (api/openapi.yaml:132), where the lines are.
const (
	// EmbeddedSpecFile is the embedded spec's path in the repository.
	EmbeddedSpecFile      = "api/openapi.yaml"
	embeddedOmissionsFile = "api/known-omissions.yaml"
	embeddedSuffix        = " (embedded)"
)

// Document is a YAML document specdiff reads: the spec or the list of known
// omissions, embedded or from a file.
type Document struct {
	Name     string // in messages and titles: the file, or "api/openapi.yaml (embedded)"
	File     string // where findings point: the file, or the embedded copy's path in the repository
	Embedded bool
	Data     []byte
}

// Read reads the spec the -spec flag names, or the embedded one when the
// flag is empty: at most maxBytes (-max-input-bytes; zero means
// fetch.DefaultMaxSize), a larger file refused before it is read.
func Read(flagValue string, maxBytes int64) (Document, error) {
	if flagValue == "" {
		return Document{Name: EmbeddedSpecFile + embeddedSuffix, File: EmbeddedSpecFile, Embedded: true, Data: api.Spec}, nil
	}
	data, err := fetch.ReadFile(flagValue, maxBytes)
	if err != nil {
		return Document{}, fmt.Errorf("-spec: %w", err)
	}
	return Document{Name: flagValue, File: flagValue, Data: data}, nil
}

// At names a line of the document: file:line, and (embedded) after it.
func (d Document) At(line int) string {
	if d.Embedded {
		return fmt.Sprintf("%s:%d%s", d.File, line, embeddedSuffix)
	}
	return fmt.Sprintf("%s:%d", d.File, line)
}

// Spec is our spec, indexed for matching. An operation is known by its
// index in Ops.
type Spec struct {
	Name      string // where it came from, for messages: a file or "api/openapi.yaml (embedded)"
	File      string // the file its findings point at
	Embedded  bool
	Doc       *openapi3.T // as kin-openapi loaded it, references resolved
	Models    oas.Models  // the names of Doc's component schemas
	Ops       []spec.Operation
	byName    map[string]int // operationId and x-snake-case-name -> index in Ops
	byRoute   map[string]int // "METHOD /path" -> index in Ops
	details   []*oas.Details
	lines     []int
	omissions map[string]bool // operationIds named in the known-omissions file
	maxBytes  int64           // the size limit of the files read, for the omissions
}

// Load loads and validates the spec the -spec flag names (the embedded
// one when it is empty), read within maxBytes (see [Read]), and indexes
// its operations by both names and by route.
func Load(flagValue string, maxBytes int64) (*Spec, error) {
	d, err := Read(flagValue, maxBytes)
	if err != nil {
		return nil, err
	}
	doc, err := loadSpecDocument(d)
	if err != nil {
		return nil, err
	}
	ops, err := spec.Operations(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Name, err)
	}
	top, err := spec.ParseYAML(d.Name, d.Data)
	if err != nil {
		return nil, err
	}
	lines := spec.OperationLines(top)
	s := &Spec{Name: d.Name, File: d.File, Embedded: d.Embedded, Doc: doc, Models: oas.ModelsOf(doc), Ops: ops,
		byName: map[string]int{}, byRoute: map[string]int{}, omissions: map[string]bool{}, maxBytes: maxBytes}
	for i, op := range ops {
		s.byName[op.ID], s.byName[op.SnakeName] = i, i
		s.byRoute[op.Method+" "+op.Path] = i
		item := doc.Paths.Value(op.Path)
		s.details = append(s.details, oas.OperationDetails(doc, item, item.GetOperation(op.Method)))
		s.lines = append(s.lines, lines[op.Method+" "+op.Path])
	}
	return s, nil
}

// loadSpecDocument loads and validates the spec with kin-openapi;
// references to other files resolve beside a -spec file.
func loadSpecDocument(d Document) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	var doc *openapi3.T
	var err error
	if d.Embedded {
		doc, err = loader.LoadFromData(d.Data)
	} else {
		doc, err = loader.LoadFromDataWithPath(d.Data, &url.URL{Path: filepath.ToSlash(d.File)})
	}
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", d.Name, err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("validating %s: %w", d.Name, err)
	}
	return doc, nil
}

// At is the place of the i-th operation in the spec file.
func (s *Spec) At(i int) report.Location { return report.Location{File: s.File, Line: s.lines[i]} }

// Index is the index in Ops of the operation named name, in either style
// (operationId or x-snake-case-name).
func (s *Spec) Index(name string) (int, bool) {
	i, ok := s.byName[name]
	return i, ok
}

// RouteIndex is the index in Ops of the operation at method (upper case)
// and path (as the spec writes it).
func (s *Spec) RouteIndex(method, path string) (int, bool) {
	i, ok := s.byRoute[method+" "+path]
	return i, ok
}

// Details is what the spec says of the i-th operation beyond its name,
// method and path.
func (s *Spec) Details(i int) *oas.Details { return s.details[i] }

// Operation is the i-th operation as kin-openapi loaded it.
func (s *Spec) Operation(i int) *openapi3.Operation {
	op := s.Ops[i]
	return s.Doc.Paths.Value(op.Path).GetOperation(op.Method)
}

// Omitted reports whether the known-omissions list (see
// [Spec.LoadOmissions]) names the operation id.
func (s *Spec) Omitted(id string) bool { return s.omissions[id] }

// OmissionsFile is where the known-omissions list of a -spec file lives by
// default: next to it.
func OmissionsFile(specPath string) string {
	return filepath.Join(filepath.Dir(specPath), "known-omissions.yaml")
}

// readOmissions reads the -omissions file, or by default the list that goes
// with the spec: the embedded one with the embedded spec, else
// known-omissions.yaml beside the -spec file.
func (s *Spec) readOmissions(flagValue string) (Document, error) {
	file := flagValue
	switch {
	case file == "" && s.Embedded:
		return Document{Name: embeddedOmissionsFile + embeddedSuffix, File: embeddedOmissionsFile, Embedded: true, Data: api.KnownOmissions}, nil
	case file == "":
		file = OmissionsFile(s.File)
	}
	data, err := fetch.ReadFile(file, s.maxBytes)
	if err != nil && flagValue == "" {
		return Document{}, fmt.Errorf("known omissions of %s: %w (name the file with -omissions)", s.Name, err)
	}
	if err != nil {
		return Document{}, fmt.Errorf("-omissions: %w", err)
	}
	return Document{Name: file, File: file, Data: data}, nil
}

// LoadOmissions reads the reviewed list of operations that some listings
// omit: the -omissions file, or by default the list that goes with the
// spec (the embedded one with the embedded spec, else known-omissions.yaml
// beside the -spec file). Every name must be a spec operation, in either
// style.
func (s *Spec) LoadOmissions(flagValue string) error {
	d, err := s.readOmissions(flagValue)
	if err != nil {
		return err
	}
	top, err := spec.ParseYAML(d.Name, d.Data)
	if err != nil {
		return fmt.Errorf("known omissions: %w", err)
	}
	list := spec.MappingValue(top, "omissions")
	if list == nil || list.Kind != yaml.SequenceNode {
		return fmt.Errorf("%s: want a list under the key omissions", d.Name)
	}
	for _, n := range list.Content {
		i, ok := s.byName[n.Value]
		if !ok || n.Kind != yaml.ScalarNode {
			return fmt.Errorf("%s: %q is not an operation of %s", d.At(n.Line), n.Value, s.Name)
		}
		s.omissions[s.Ops[i].ID] = true
	}
	return nil
}
