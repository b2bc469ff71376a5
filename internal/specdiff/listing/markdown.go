package listing

import (
	"bytes"
	"regexp"
	"strings"
)

// Header names of the columns of an operation table, lower case, in order
// of preference. openapi-generator prints "Class | Method | HTTP request |
// Description", where Method is the operation's name.
var (
	nameHeaders    = []string{"operation", "operationid", "operation id", "method", "function", "name"}
	requestHeaders = []string{"http request", "method and path", "endpoint", "request", "route"}
)

// columns locates the name and request columns of an operation table;
// request is -1 when the table has names only.
type columns struct {
	name, request, count int
}

// parseMarkdown reads every operation table of a Markdown document: a
// table whose header has a name column and a request column (METHOD PATH),
// or a name column headed Operation, Method or Function. Other tables are
// skipped.
func parseMarkdown(src string, data []byte) ([]Entry, error) {
	lines := strings.Split(string(bytes.TrimPrefix(data, utf8BOM)), "\n")
	var entries []Entry
	tables := 0
	for i := 0; i+1 < len(lines); i++ {
		if !strings.Contains(lines[i], "|") || !tableDivider.MatchString(lines[i+1]) {
			continue
		}
		cols, ok := operationColumns(splitRow(lines[i]))
		if !ok {
			continue
		}
		tables++
		j := i + 2
		for ; j < len(lines) && isTableRow(lines[j]); j++ {
			e, err := parseTableRow(src, j+1, splitRow(lines[j]), cols)
			if err != nil {
				return nil, err
			}
			entries = append(entries, e)
		}
		i = j - 1
	}
	if tables == 0 {
		return nil, lineError(src, 1, "no operation table: want a header row with a name column (%s) and a request column (%s)",
			strings.Join(nameHeaders, ", "), strings.Join(requestHeaders, ", "))
	}
	return entries, nil
}

func operationColumns(header []string) (columns, bool) {
	cols := columns{name: -1, request: -1, count: len(header)}
	lower := make([]string, len(header))
	for i, h := range header {
		lower[i] = strings.ToLower(cleanCell(h))
	}
	cols.request = firstColumn(lower, requestHeaders)
	cols.name = firstColumn(lower, nameHeaders)
	if cols.name < 0 || (cols.request < 0 && lower[cols.name] == "name") {
		return cols, false
	}
	return cols, true
}

func firstColumn(header, wanted []string) int {
	for _, w := range wanted {
		for i, h := range header {
			if h == w {
				return i
			}
		}
	}
	return -1
}

func isTableRow(line string) bool {
	return strings.Contains(line, "|") && strings.TrimSpace(line) != ""
}

// splitRow splits a table row into trimmed cells; \| is a literal bar.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if !strings.HasSuffix(line, `\|`) {
		line = strings.TrimSuffix(line, "|")
	}
	cells := strings.Split(strings.ReplaceAll(line, `\|`, "\x00"), "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(strings.ReplaceAll(c, "\x00", "|"))
	}
	return cells
}

func parseTableRow(src string, n int, cells []string, cols columns) (Entry, error) {
	need := max(cols.name, cols.request) + 1
	if len(cells) < need {
		return Entry{}, lineError(src, n, "row has %d cells, want at least %d", len(cells), need)
	}
	name := strings.TrimSuffix(cleanCell(cells[cols.name]), "()")
	if !operationName.MatchString(name) {
		return Entry{}, lineError(src, n, "%q is not an operation name", name)
	}
	e := Entry{Name: name, Line: n}
	if cols.request < 0 {
		return e, nil
	}
	fields := strings.Fields(cleanCell(cells[cols.request]))
	switch len(fields) {
	case 0:
		return e, nil
	case 1:
		return Entry{}, lineError(src, n, "request %q: want METHOD PATH", cells[cols.request])
	}
	var err error
	e.Method, e.Path, err = parseRoute(src, n, fields[0], fields[1])
	return e, err
}

var (
	markdownLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	emphasis     = regexp.MustCompile("\\*+|`+|~~")
)

// cleanCell strips Markdown from a cell: links keep their text, emphasis
// and code marks go, \_ becomes _.
func cleanCell(c string) string {
	c = markdownLink.ReplaceAllString(c, "$1")
	c = emphasis.ReplaceAllString(c, "")
	c = strings.ReplaceAll(c, `\_`, "_")
	if len(c) > 4 && strings.HasPrefix(c, "__") && strings.HasSuffix(c, "__") {
		c = c[2 : len(c)-2]
	}
	return strings.TrimSpace(c)
}
