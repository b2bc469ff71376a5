package fake

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
)

// chartTablePage answers getExperimentRunResultChartTableData: rows from to
// to of a table chart with total rows, generated while they are written. It
// writes the bytes the generated response type would, without building a
// gen.Row per row nor the whole body in memory (the generated encoding of a
// row goes through maps and costs dozens of allocations).
type chartTablePage struct {
	chart           chart
	seed, key       int64
	from, to, total int64
}

// flushSize is how much of a chart table page is buffered between writes.
const flushSize = 32 << 10

func (p chartTablePage) VisitGetExperimentRunResultChartTableDataResponse(w http.ResponseWriter) error {
	buf := append(make([]byte, 0, 2*flushSize), `{"entityList":[`...)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	for i := p.from; i < p.to; i++ {
		if i > p.from {
			buf = append(buf, ',')
		}
		buf = p.appendRow(buf, i)
		if len(buf) >= flushSize {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(p.appendTail(buf))
	return err
}

// appendTail closes the rows and appends the fields after them, in the
// order of the generated type.
func (p chartTablePage) appendTail(buf []byte) []byte {
	buf = append(buf, `],"id":`...)
	buf = strconv.AppendInt(buf, p.chart.id, 10)
	for _, name := range []string{`,"totalEntityCount":`, `,"totalTechnicalRowCount":`} {
		buf = append(buf, name...)
		buf = strconv.AppendInt(buf, p.total, 10)
	}
	return append(buf, `,"type":"TABLE"}`+"\n"...)
}

// appendRow appends row i as gen.Row encodes it: {"cells":[...],"index":i}.
func (p chartTablePage) appendRow(buf []byte, i int64) []byte {
	buf = append(buf, `{"cells":[`...)
	for c, col := range chartColumns {
		if c > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"type":`...)
		buf = appendJSONString(buf, col.typ)
		buf = append(buf, `,"value":`...)
		buf = genValue(p.seed, col, p.key, i).appendJSON(buf)
		buf = append(buf, '}')
	}
	buf = append(buf, `],"index":`...)
	buf = strconv.AppendInt(buf, i, 10)
	return append(buf, '}')
}

// appendJSON appends the value as encoding/json encodes v.any().
func (v value) appendJSON(buf []byte) []byte {
	switch v.typ {
	case "INTEGER":
		return strconv.AppendInt(buf, v.n, 10)
	case "BOOLEAN":
		return strconv.AppendBool(buf, v.b)
	case "DOUBLE":
		if a := math.Abs(v.f); a == 0 || (a >= 1e-6 && a < 1e21) {
			return strconv.AppendFloat(buf, v.f, 'f', -1, 64)
		}
	case "STRING":
		if plainJSON(v.label) {
			buf = append(buf, '"')
			buf = append(buf, v.label...)
			if v.labelSpace {
				buf = append(buf, ' ')
			}
			buf = strconv.AppendInt(buf, v.n, 10)
			return append(buf, '"')
		}
	}
	b, _ := json.Marshal(v.any())
	return append(buf, b...)
}

// appendJSONString appends s quoted as encoding/json quotes it.
func appendJSONString(buf []byte, s string) []byte {
	if !plainJSON(s) {
		b, _ := json.Marshal(s)
		return append(buf, b...)
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

// plainJSON tells whether s is printable ASCII that encoding/json writes
// between quotes unchanged (it escapes quotes, backslashes and <, >, &).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
