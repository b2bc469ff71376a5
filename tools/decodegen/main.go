package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oapi-codegen/oapi-codegen/v2/pkg/codegen"

	"github.com/scmodel/scmgo/internal/spec"
)

func main() {
	specPath := flag.String("spec", "api/openapi.yaml", "OpenAPI document to read")
	typesPath := flag.String("types", "gen/api.gen.go", "the Go types oapi-codegen generated from it")
	out := flag.String("out", "gen/decode.gen.go", "Go file to write the decoders to")
	methods := flag.String("methods", "", "Go file to write the models' JSON methods to (default models.gen.go beside -out)")
	index := flag.String("index", "", "Go file to write the model index to (package genmodels); none when empty")
	example := flag.String("example", "", "Go test file to write the example of DecodeAnswer to (default decode_example_test.go beside -out)")
	flag.Parse()
	if *methods == "" {
		*methods = filepath.Join(filepath.Dir(*out), "models.gen.go")
	}
	if *example == "" {
		*example = filepath.Join(filepath.Dir(*out), "decode_example_test.go")
	}
	if err := run(*specPath, *typesPath, *out, *methods, *index); err != nil {
		log.Fatalf("decodegen: %v", err)
	}
	if err := os.WriteFile(*example, []byte(exampleSource), 0o644); err != nil {
		log.Fatalf("decodegen: %v", err)
	}
}

func run(specPath, typesPath, out, methodsOut, indexOut string) error {
	ops, err := spec.LoadOperations(specPath)
	if err != nil {
		return err
	}
	doc, err := spec.Load(specPath)
	if err != nil {
		return err
	}
	if err := declareProperties(typesPath); err != nil {
		return err
	}
	tf, err := readTypes(typesPath)
	if err != nil {
		return err
	}
	if tf.unions, err = loadUnions(doc); err != nil {
		return err
	}
	src, err := render(tf, newSchemas(doc), answerModels(ops))
	if err != nil {
		return err
	}
	src, err = withAnswers(src, ops)
	if err != nil {
		return err
	}
	methods, err := renderMethods(tf)
	if err != nil {
		return err
	}
	if err := os.WriteFile(methodsOut, methods, 0o644); err != nil {
		return err
	}
	if err := writeIndex(indexOut, doc, tf); err != nil {
		return err
	}
	return os.WriteFile(out, src, 0o644)
}

// answerModels returns the Go type names of the models that operations
// answer with JSON: the answer itself, or the elements of an answer that
// is a list.
func answerModels(ops []spec.Operation) []string {
	var names []string
	for _, op := range ops {
		if op.Response.Schema != "" && !op.Response.Binary {
			names = append(names, codegen.SchemaNameToTypeName(op.Response.Schema))
		}
	}
	return sortedUnique(names)
}

// writeIndex writes the model index to path, unless path is empty.
func writeIndex(path string, doc *openapi3.T, tf *typesFile) error {
	if path == "" {
		return nil
	}
	src, err := renderIndex(doc, tf)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, src, 0o644)
}
