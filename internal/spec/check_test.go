package spec

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkFixture is a small spec that satisfies every rule: a job with start,
// poll and cancel operations, and a paged list with an inline item schema.
const checkFixture = `openapi: 3.0.3
info: {title: fixture, version: "1"}
paths:
  /start:
    get:
      operationId: startJob
      x-snake-case-name: start_job
      x-changes-state: true
      x-paging: false
      x-async: {role: start, poll: pollJob, cancel: cancelJob, id: jobId}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Job'}
  /status:
    get:
      operationId: pollJob
      x-snake-case-name: poll_job
      x-changes-state: false
      x-paging: false
      x-async: {role: poll, id: jobId}
      parameters:
      - {name: jobId, in: query, required: true, schema: {type: integer}}
      responses:
        '200': {description: ok}
  /stop:
    post:
      operationId: cancelJob
      x-snake-case-name: cancel_job
      x-changes-state: true
      x-paging: false
      x-async: {role: cancel, id: jobId}
      responses:
        default: {description: ok}
  /x-items:
    get:
      operationId: listItems
      x-snake-case-name: list_items
      x-changes-state: false
      x-paging: true
      x-paged-items: '[]'
      parameters:
      - {$ref: '#/components/parameters/skip'}
      - {$ref: '#/components/parameters/take'}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: array
                items:
                  type: object
                  additionalProperties: false
                  properties:
                    name: {type: string}
  /shape:
    get:
      operationId: getShape
      x-snake-case-name: get_shape
      x-changes-state: false
      x-paging: false
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Shape'}
              example: {kind: circle, size: 2, label: null}
components:
  parameters:
    skip: {name: skip, in: query, schema: {type: integer}}
    take: {name: take, in: query, schema: {type: integer}}
  schemas:
    Job:
      type: object
      additionalProperties: false
      properties:
        jobId: {type: integer, x-observed: a client reads jobId}
        inner:
          type: object
          additionalProperties: true
          properties:
            note: {type: string}
    Shape:
      oneOf:
      - {$ref: '#/components/schemas/Circle'}
      - {$ref: '#/components/schemas/Square'}
      discriminator:
        propertyName: kind
        mapping: {circle: '#/components/schemas/Circle', square: '#/components/schemas/Square'}
    Circle:
      type: object
      additionalProperties: true
      required: [kind, size]
      properties:
        kind: {type: string, enum: [circle]}
        size: {type: number}
        label: {type: string, nullable: true}
    Square:
      type: object
      additionalProperties: true
      required: [kind, size]
      properties:
        kind: {type: string, enum: [square]}
        size: {type: number}
`

func writeSpec(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "openapi.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// plant applies old/new replacements to the fixture, failing when an old
// text is absent so that a fixture edit cannot silently disarm a case.
func plant(t *testing.T, pairs ...string) string {
	t.Helper()
	text := checkFixture
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(text, pairs[i]) {
			t.Fatalf("fixture has no %q", pairs[i])
		}
		text = strings.Replace(text, pairs[i], pairs[i+1], 1)
	}
	return text
}

func TestCheckAcceptsFixtureAndRepositorySpec(t *testing.T) {
	for name, path := range map[string]string{
		"fixture":          writeSpec(t, checkFixture),
		"api/openapi.yaml": "../../api/openapi.yaml",
	} {
		t.Run(name, func(t *testing.T) {
			problems, err := Check(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Errorf("unexpected problem: %s", p)
			}
		})
	}
}

func TestCheckFindsPlantedViolations(t *testing.T) {
	const items = "listItems responses.200 application/json.items"
	tests := map[string]struct {
		plant []string
		want  []string // "rule where"
	}{
		"operationId not camelCase": {
			plant: []string{"operationId: listItems", "operationId: ListItems"},
			want:  []string{"operation-id ListItems"},
		},
		"snake name not snake_case": {
			plant: []string{"x-snake-case-name: list_items", "x-snake-case-name: listItems"},
			want:  []string{"snake-name listItems"},
		},
		"snake name missing": {
			plant: []string{"      x-snake-case-name: list_items\n", ""},
			want:  []string{"snake-name listItems"},
		},
		"snake name used twice": {
			plant: []string{"x-snake-case-name: list_items", "x-snake-case-name: poll_job"},
			want:  []string{"unique-name listItems"},
		},
		"operationId collides with another snake name": {
			plant: []string{"x-snake-case-name: poll_job", "x-snake-case-name: items", "operationId: listItems", "operationId: items", "x-snake-case-name: list_items", "x-snake-case-name: items_list"},
			want:  []string{"unique-name items"},
		},
		"operationId used twice": {
			plant: []string{"operationId: listItems", "operationId: startJob", "x-snake-case-name: list_items", "x-snake-case-name: start_job_again"},
			want:  []string{"openapi <spec>", "unique-name GET /x-items"},
		},
		"path parameter the path lacks": {
			plant: []string{"{name: jobId, in: query,", "{name: jobId, in: path,"},
			want:  []string{"openapi <spec>", "path-parameter GET /status"},
		},
		"path name without its parameter": {
			plant: []string{"  /x-items:", "  /x-items/{kind}:"},
			want:  []string{"openapi <spec>", "path-parameter GET /x-items/{kind}"},
		},
		"x-changes-state missing": {
			plant: []string{"      x-changes-state: false\n      x-paging: true", "      x-paging: true"},
			want:  []string{"extension listItems"},
		},
		"x-paging not boolean": {
			plant: []string{"x-paging: true", "x-paging: 'yes'"},
			want:  []string{"extension listItems"},
		},
		"paged without take": {
			plant: []string{"      - {$ref: '#/components/parameters/take'}\n", ""},
			want:  []string{"paging listItems"},
		},
		"paged without x-paged-items": {
			plant: []string{"      x-paged-items: '[]'\n", ""},
			want:  []string{"paging listItems"},
		},
		"x-paged-items naming no property of the response": {
			plant: []string{"x-paged-items: '[]'", "x-paged-items: rows"},
			want:  []string{"paging listItems"},
		},
		"skip and take on an unpaged operation": {
			plant: []string{"x-paging: true", "x-paging: false"},
			want:  []string{"paging listItems"},
		},
		"poll link names no operation": {
			plant: []string{"poll: pollJob", "poll: pollJobs"},
			want:  []string{"async startJob"},
		},
		"cancel link names an operation with another role": {
			plant: []string{"cancel: cancelJob", "cancel: pollJob"},
			want:  []string{"async startJob"},
		},
		"poll operation names another job id": {
			plant: []string{"{role: poll, id: jobId}", "{role: poll, id: rcId}"},
			want:  []string{"async startJob"},
		},
		"unknown role": {
			plant: []string{"{role: cancel, id: jobId}", "{role: stop, id: jobId}"},
			want:  []string{"async cancelJob", "async startJob"},
		},
		"unresolved reference": {
			plant: []string{"#/components/schemas/Job'", "#/components/schemas/Jobs'"},
			want:  []string{"openapi <spec>", "ref #/components/schemas/Jobs"},
		},
		"inline object without additionalProperties": {
			plant: []string{"                  additionalProperties: false\n", ""},
			want:  []string{"additional-properties " + items},
		},
		"nested component object without additionalProperties": {
			plant: []string{"          additionalProperties: true\n", ""},
			want:  []string{"additional-properties components.schemas.Job.properties.inner"},
		},
		"x-observed empty": {
			plant: []string{"x-observed: a client reads jobId", "x-observed: ''"},
			want:  []string{"observed x-observed"},
		},
		"x-observed not a string": {
			plant: []string{"x-observed: a client reads jobId", "x-observed: true"},
			want:  []string{"observed x-observed"},
		},
		"x-observed over two lines": {
			plant: []string{"{type: integer, x-observed: a client reads jobId}", "\n          type: integer\n          x-observed: |\n            a client\n            reads jobId"},
			want:  []string{"observed x-observed"},
		},
		"x-observed beside a $ref": {
			plant: []string{"schema: {$ref: '#/components/schemas/Job'}", "schema: {$ref: '#/components/schemas/Job', x-observed: seen}"},
			want:  []string{"observed x-observed"},
		},
		"oneOf variant told apart only by the discriminator": {
			plant: []string{"kind: {type: string, enum: [circle]}", "kind: {type: string}", "kind: {type: string, enum: [square]}", "kind: {type: string}"},
			want:  []string{"example getShape responses.200 example", "one-of components.schemas.Shape", "one-of components.schemas.Shape"},
		},
		"oneOf variant that does not require the property": {
			plant: []string{"required: [kind, size]", "required: [size]"},
			want:  []string{"one-of components.schemas.Shape"},
		},
		"oneOf variant whose value the discriminator maps elsewhere": {
			plant: []string{"mapping: {circle: '#/components/schemas/Circle', square: '#/components/schemas/Square'}", "mapping: {round: '#/components/schemas/Circle', square: '#/components/schemas/Square'}"},
			want:  []string{"one-of components.schemas.Shape", "openapi <spec>"},
		},
		"example with null where the schema is not nullable": {
			plant: []string{"label: {type: string, nullable: true}", "label: {type: string}"},
			want:  []string{"example getShape responses.200 example", "openapi <spec>"},
		},
		"example without a required field": {
			plant: []string{"example: {kind: circle, size: 2, label: null}", "example: {kind: circle, label: null}"},
			want:  []string{"example getShape responses.200 example", "openapi <spec>"},
		},
		"kin-openapi validation": {
			plant: []string{`info: {title: fixture, version: "1"}`, `info: {title: fixture}`},
			want:  []string{"openapi <spec>"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			path := writeSpec(t, plant(t, tc.plant...))
			problems, err := Check(path)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range problems {
				got = append(got, p.Rule+" "+strings.ReplaceAll(p.Where, path, "<spec>"))
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("problems = %q, want %q\n%v", got, tc.want, problems)
			}
		})
	}
}

func TestCheckNamesLines(t *testing.T) {
	text := plant(t, "x-paging: true", "x-paging: 'yes'", "#/components/schemas/Job'", "#/components/schemas/Jobs'")
	problems, err := Check(writeSpec(t, text))
	if err != nil {
		t.Fatal(err)
	}
	lineOf := func(s string) int {
		return strings.Count(text[:strings.Index(text, s)], "\n") + 1
	}
	want := map[string]int{
		RuleRef:       lineOf("{$ref: '#/components/schemas/Jobs'}"),
		RuleExtension: lineOf("  /x-items:\n    get:") + 1,
	}
	for _, p := range problems {
		if line, ok := want[p.Rule]; ok && p.Line != line {
			t.Errorf("%s: line %d, want %d", p, p.Line, line)
		}
		if p.Line > 0 && !strings.HasPrefix(p.String(), "line ") {
			t.Errorf("String() = %q, want a line prefix", p.String())
		}
	}
}

// The three edits that used to leave gen/ broken or unexplained are named
// with the line to change: a reference to a missing schema, an operationId
// used twice, and a path parameter the path lacks.
func TestCheckNamesTheLineOfBrokenEdits(t *testing.T) {
	tests := map[string]struct {
		plant      []string
		rule, line string // the problem's rule and the text on its line
	}{
		"missing schema": {[]string{"#/components/schemas/Job'", "#/components/schemas/Jobs'"},
			RuleRef, "schema: {$ref: '#/components/schemas/Jobs'}"},
		"duplicate operationId": {[]string{"operationId: listItems", "operationId: startJob", "x-snake-case-name: list_items", "x-snake-case-name: start_job_again"},
			RuleUniqueName, "  /x-items:\n    get:"},
		"path parameter the path lacks": {[]string{"{name: jobId, in: query,", "{name: jobId, in: path,"},
			RulePathParameter, "- {name: jobId, in: path,"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			text := plant(t, tc.plant...)
			problems, err := Check(writeSpec(t, text))
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Count(text[:strings.Index(text, tc.line)], "\n") + 1
			if strings.HasSuffix(tc.line, "get:") {
				want++ // the line of the method
			}
			for _, p := range problems {
				if p.Rule == tc.rule && p.Line == want {
					return
				}
			}
			t.Errorf("no %s problem on line %d: %v", tc.rule, want, problems)
		})
	}
}

func TestCheckRejectsUnreadableFiles(t *testing.T) {
	if _, err := Check(filepath.Join(t.TempDir(), "absent.yaml")); err == nil {
		t.Error("Check of an absent file: no error")
	}
	if _, err := Check(writeSpec(t, "a: [b\n")); err == nil || !strings.Contains(err.Error(), "line") {
		t.Errorf("Check of broken YAML: error %v, want one naming the line", err)
	}
}
