package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// oapiOutput is how oapi-codegen declares the models' unknown fields.
const oapiOutput = `package gen

import (
	"encoding/json"
)

type RawJSON = json.RawMessage

type Model struct {
	Name                 string             ` + "`json:\"name\"`" + `
	AdditionalProperties map[string]RawJSON ` + "`json:\"-\"`" + `
}

type Error struct {
	Details *map[string]RawJSON ` + "`json:\"details,omitempty\"`" + `
}
`

func TestUnknownFieldsAreDeclaredProperties(t *testing.T) {
	path := filepath.Join(t.TempDir(), "api.gen.go")
	require.NoError(t, os.WriteFile(path, []byte(oapiOutput), 0o644))
	require.NoError(t, declareProperties(path))
	once, err := os.ReadFile(path)
	require.NoError(t, err)
	src := string(once)
	assert.Contains(t, src, "AdditionalProperties extra.Properties `json:\"-\"`")
	assert.Contains(t, src, "Details *map[string]RawJSON `json:\"details,omitempty\"`", "a map the spec declares as a field stays a map")
	assert.Equal(t, 1, strings.Count(src, propertiesImport), "the import is added once")

	tf, err := readTypes("api.gen.go", src)
	require.NoError(t, err)
	assert.NotNil(t, tf.model("Model"), "a model with extra.Properties keeps unknown fields")

	require.NoError(t, declareProperties(path))
	twice, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, src, string(twice), "a file already declared is left as it is")
}
