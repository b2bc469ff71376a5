package facade

import (
	"net/http"
	"strings"
	"testing"

	"github.com/scmodel/scmgo/gen"
)

// FuzzDecodeResponses feeds arbitrary bodies to the decoding of the table
// and run-configuration models: no panic, and a failure keeps the status.
func FuzzDecodeResponses(f *testing.F) {
	for _, seed := range []string{
		`{"columns":[{"id":"a","name":"A"}],"rows":[{"index":0,"cells":[{"value":1}]}],"totalRows":1}`,
		`{"experimentType":"GFA","rcId":10101,"runConfiguration":{"numberOfSites":3,"properties":[{"name":"x","value":{"big":123456789012345678901234567890}}]}}`,
		`{"rows":null}`, `[]`, `{"rows":[{"index":"x"}]}`, `<html>`, ``, `{"experimentType":"NOPE","runConfiguration":[1,2]}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, status := range []int{http.StatusOK, http.StatusBadGateway} {
			resp := &http.Response{StatusCode: status, Header: http.Header{}, Body: httpBody(body)}
			var table gen.ApiStrictTableChartData
			cl := newCall("getExperimentRunResultChartTableData", nil)
			if err := consumeAndClose(cl, resp, decodeInto(&table)); err != nil {
				if err.(*APIError).StatusCode != status {
					t.Fatalf("status lost: %v", err)
				}
			}
			var cfg gen.ApiARunConfigurationWrapper
			resp.Body = httpBody(body)
			_ = consumeAndClose(newCall("getExperimentRunConfiguration", nil), resp, decodeInto(&cfg))
			if cfg.RunConfiguration != nil {
				_, _ = cfg.RunConfiguration.MarshalJSON()
			}
			resp.Body = httpBody(body)
			apiErr := newAPIError("getExperimentRunConfiguration", resp)
			_ = apiErr.Error()
		}
	})
}

func httpBody(s string) *bodyReader { return &bodyReader{strings.NewReader(s)} }

type bodyReader struct{ *strings.Reader }

func (bodyReader) Close() error { return nil }
