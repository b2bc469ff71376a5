package main

import (
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/oapi-codegen/oapi-codegen/v2/pkg/codegen"

	"github.com/scmodel/scmgo/internal/spec"
)

func main() {
	specPath := flag.String("spec", "api/openapi.yaml", "OpenAPI document to read")
	typesPath := flag.String("types", "gen/api.gen.go", "the Go types oapi-codegen generated from it")
	out := flag.String("out", "gen/decode.gen.go", "Go file to write")
	flag.Parse()
	if err := run(*specPath, *typesPath, *out); err != nil {
		log.Fatalf("decodegen: %v", err)
	}
}

func run(specPath, typesPath, out string) error {
	names, err := pagedModels(specPath)
	if err != nil {
		return err
	}
	tf, err := readTypes(typesPath)
	if err != nil {
		return err
	}
	src, err := render(tf, names)
	if err != nil {
		return err
	}
	return os.WriteFile(out, src, 0o644)
}

// pagedModels returns the Go type names of the responses of the paged
// operations: an object holding the page's items, or the list of them.
func pagedModels(specPath string) ([]string, error) {
	ops, err := spec.LoadOperations(specPath)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, op := range ops {
		if op.PagedItems == "" {
			continue
		}
		if op.Response.Schema == "" {
			return nil, fmt.Errorf("paged operation %s: the response has no component schema", op.ID)
		}
		names = append(names, codegen.SchemaNameToTypeName(op.Response.Schema))
	}
	return sortedUnique(names), nil
}
