package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"regexp"
)

// propertiesType is the type of every model's AdditionalProperties field.
const (
	propertiesType   = "extra.Properties"
	propertiesImport = `"github.com/scmodel/scmgo/extra"`
)

// oapiAdditional is how oapi-codegen declares the unknown fields of a model
// whose spec has additionalProperties of RawJSON: a map, which costs two
// allocations and about 400 bytes per row that has one.
var oapiAdditional = regexp.MustCompile("(?m)^(\tAdditionalProperties\\s+)map\\[string\\]RawJSON(\\s+`json:\"-\"`)$")

// declareProperties rewrites the types file oapi-codegen wrote so that
// every model keeps its unknown fields in an extra.Properties instead of a
// map. oapi-codegen writes the field's type itself, from no template, so
// it is changed here, where the models' methods are written. A file
// already rewritten is left as it is.
func declareProperties(typesPath string) error {
	src, err := os.ReadFile(typesPath)
	if err != nil {
		return err
	}
	out := oapiAdditional.ReplaceAll(src, []byte("${1}"+propertiesType+"${2}"))
	if bytes.Equal(out, src) {
		return nil
	}
	if !bytes.Contains(out, []byte(propertiesImport)) {
		i := bytes.Index(out, []byte("\nimport (\n"))
		if i < 0 {
			return fmt.Errorf("%s: no import block to add %s to", typesPath, propertiesImport)
		}
		i += len("\nimport (\n")
		out = append(out[:i:i], append([]byte("\t"+propertiesImport+"\n"), out[i:]...)...)
	}
	if out, err = format.Source(out); err != nil {
		return fmt.Errorf("%s: formatting after declaring %s: %w", typesPath, propertiesType, err)
	}
	return os.WriteFile(typesPath, out, 0o644)
}
