package facade

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/scmodel/scmgo/gen"
)

// decodeCases are bodies that the generated decoders and encoding/json must
// decode alike: known and unknown fields at every level, null in every
// field, repeated keys, escapes, odd numbers and broken documents.
var decodeCases = []string{
	`{"columns":[{"id":"a","name":"A","type":"STRING"}],"rows":[{"index":0,"cells":[{"type":"STRING","value":"x"},{"value":12345678901234567890}],"selected":true}],"totalRows":1}`,
	`{"chartId":101,"name":"T","columns":[],"rows":[],"totalRows":0,"sort":[{"columnId":"a","ascending":true}],"filters":[{"columnId":"a","operator":"EQ","value":"1"}],"aggregations":[{"columnId":"a","function":"SUM","values":[{"key":"k","value":1.5}]}]}`,
	`{"rows":[{"index":1,"cells":[{"value":null},{"type":null}],"valid":false}],"totalRows":3,"columns":null}`,
	`{"chartId":null,"name":null,"columns":null,"rows":null,"totalRows":null,"sort":null,"filters":null,"aggregations":null}`,
	`{"rows":[{"index":null,"cells":null,"selected":null,"valid":null}],"columns":[{"id":null,"name":null,"type":null,"editable":null}]}`,
	`{"rows":[null,{"cells":[null]}],"columns":[null],"sort":[null],"filters":[null],"aggregations":[null,{"values":[null]}]}`,
	`{"rows":[{"index":1,"cells":[],"extra":"kept"}],"totalRows":1,"columns":[]}`,
	`{"rows":[{"index":1,"cells":[{"value":1,"unit":"kg"}]}],"totalRows":1,"columns":[],"future":{"a":[1, 2 ,{"b":null}]}}`,
	`{"rows":[{"Index":7,"cells":[]}],"ROWS":[],"totalrows":1}`,
	`{"rows":[{"ind\u0065x":7,"cells":[{"valu\u0065":"\u00e9\n\"\\\/"}]}]}`,
	`{"rows":[{"index":1,"index":2,"cells":[{"value":1}],"cells":[{"value":2}]}],"rows":[{"index":3}]}`,
	`{"rows":[{"index":"one","cells":[]}],"totalRows":1}`,
	`{"rows":[{"index":"one"}],"rows":[{"index":1}]}`,
	`{"rows":[{"index":1}],"rows":[{"index":"one"}]}`,
	`{"rows":[{"index":1.5}]}`, `{"rows":[{"index":1e2}]}`, `{"rows":[{"index":-0}]}`,
	`{"rows":[{"index":9223372036854775807}]}`, `{"rows":[{"index":9223372036854775808}]}`, `{"rows":[{"index":-9223372036854775809}]}`,
	`{"rows":[{"selected":"true"}]}`, `{"rows":[{"selected":1}]}`, `{"rows":{"index":1}}`, `{"rows":[[]]}`, `{"columns":[{"id":1}]}`,
	`{"options":[{"id":"a","name":"A","x":1}],"totalCount":1}`, `{"options":[{"id":"a","id":null}],"totalCount":1.0}`,
	`{"rcId":1,"results":[{"key":"k","value":1e308,"unit":"t"}],"experimentType":"GFA","totalResults":1}`,
	`{"results":[{"value":1e309}]}`, `{"results":[{"value":-1.5e-400}]}`, `{"experimentType":"NOT_A_TYPE"}`, `{"experimentType":7}`,
	`[{"resultOptionId":1,"name":"a","objectiveValue":2.5},{"resultOptionId":2147483648}]`,
	`[{"resultOptionId":-2147483648},null,{"future":true}]`,
	`{"r\u00f6ws":1,"\u00e9":2,"\ud800":3,"\udc00\ud800\udc00":4,"\ud83d\ude00":5}`,
	"{\"\xff\":1,\"a\xc3\":2,\"rows\":[{\"cells\":[{\"type\":\"\xe2\x82\"}]}]}",
	`{"name":"\ud800\u0041","columns":[{"id":"\udc00\ud800\udc00","name":"\ud83d"}]}`,
	`{"a":{"b":{"c":[[[[[[{"d":"]"}]]]]]]}},"rows":[]}`,
	`{"rows":[],"totalRows":1} trailing`, `{"rows":[],"totalRows":1}   `, `{"rows":[],}`, `{"rows":[1,]}`, `{"rows" [] }`,
	`{"rows":[{"index":01}]}`, `{"rows":[{"index":-}]}`, `{"rows":[{"index":1.}]}`, `{"rows":[{"index":.5}]}`, `{"x":tru}`, `{"x":nul}`,
	"{\"x\":\"a\x01b\"}", `{"x":"\x"}`, `{"x":"\u12"}`, `{"x":"abc`, `{"x":1`, `{"x"`, `{`, `}`,
	` {"rows" : [ { "index" : 1 , "cells" : [ { "value" : [ 1 , 2 ] } ] } ] } `,
	`[]`, `[null]`, `null`, ` null `, `1`, `"s"`, `true`, ``, ` `,
}

// decodesAlike decodes data into a T with gen.DecodeJSON and with
// encoding/json and fails unless both fail or both give the same value.
func decodesAlike[T any](t *testing.T, data []byte) {
	t.Helper()
	var fast, slow T
	fastErr := gen.DecodeJSON(data, &fast)
	slowErr := json.Unmarshal(data, &slow)
	if (fastErr == nil) != (slowErr == nil) {
		t.Fatalf("%T from %q: gen.DecodeJSON says %v, encoding/json says %v", fast, data, fastErr, slowErr)
	}
	if slowErr == nil && !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%T from %q:\n gen.DecodeJSON gives %#v\nencoding/json gives %#v", fast, data, fast, slow)
	}
}

// decodesAllAlike checks every model a paged operation answers, in the
// forms DecodeJSON takes, and the row and cell on their own.
func decodesAllAlike(t *testing.T, data []byte) {
	decodesAlike[gen.ApiStrictTableChartData](t, data)
	decodesAlike[*gen.ApiStrictTableData](t, data)
	decodesAlike[gen.ApiOptionList](t, data)
	decodesAlike[gen.ApiExperimentResultData](t, data)
	decodesAlike[[]gen.ApiExperimentResultOption](t, data)
	decodesAlike[[]gen.Row](t, data)
	decodesAlike[gen.Cell](t, data)
}

func TestGeneratedDecodersAgreeWithEncodingJSON(t *testing.T) {
	for _, body := range decodeCases {
		decodesAllAlike(t, []byte(body))
	}
}

// FuzzDecodeAgreesWithEncodingJSON: the generated decoders and encoding/json
// agree on every input, unknown fields included.
func FuzzDecodeAgreesWithEncodingJSON(f *testing.F) {
	for _, body := range decodeCases {
		f.Add([]byte(body))
	}
	f.Fuzz(decodesAllAlike)
}

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
			if err := consumeAndClose(cl, resp, driftClient().decodeInto(cl, &table)); err != nil {
				if err.(*APIError).StatusCode != status {
					t.Fatalf("status lost: %v", err)
				}
			}
			var cfg gen.ApiARunConfigurationWrapper
			resp.Body = httpBody(body)
			_ = consumeAndClose(newCall("getExperimentRunConfiguration", nil), resp, driftClient().decodeInto(newCall("getExperimentRunConfiguration", nil), &cfg))
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

// Nesting as deep as encoding/json allows (10000 levels) decodes alike, and
// one level more fails alike, in unknown fields, raw values and known ones.
func TestDeepNestingDecodesAlike(t *testing.T) {
	for _, depth := range []int{9998, 9999, 10000} {
		for _, at := range []string{`{"x":%s}`, `{"rows":[{"cells":[{"value":%s}]}]}`, `{"rows":%s}`} {
			arrays := strings.Repeat("[", depth) + strings.Repeat("]", depth)
			objects := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
			for _, v := range []string{arrays, objects} {
				decodesAllAlike(t, []byte(strings.Replace(at, "%s", v, 1)))
			}
		}
	}
}
