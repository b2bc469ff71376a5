package pagebench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/scmodel/scmgo/gen"
)

// A Client pages through the whole table at base, the server's URL with
// /api/v1, and returns how many rows it read.
type Client struct {
	Name string
	Page func(ctx context.Context, base string) (int, error)
}

// Transport is a fresh transport like net/http's default one, for clients
// that are given no other.
func Transport() *http.Transport { return http.DefaultTransport.(*http.Transport).Clone() }

// PlainPage and the structs it holds have the generated models' fields and
// nothing else: no unknown fields kept, no methods, so encoding/json (and
// the other plain decoders the benchmarks compare) decode them directly,
// dropping unknown fields.
type (
	PlainPage struct {
		EntityList             []plainRow `json:"entityList"`
		ID                     int64      `json:"id"`
		TotalEntityCount       int64      `json:"totalEntityCount"`
		TotalTechnicalRowCount int64      `json:"totalTechnicalRowCount"`
		Type                   string     `json:"type"`
	}
	plainRow struct {
		Cells    []plainCell `json:"cells"`
		Index    int64       `json:"index"`
		Selected *bool       `json:"selected,omitempty"`
		Valid    *bool       `json:"valid,omitempty"`
	}
	plainCell struct {
		Type  *string          `json:"type,omitempty"`
		Value *json.RawMessage `json:"value,omitempty"`
	}
)

// Plain is a hand-written loop of net/http and encoding/json decoding into
// plain structs.
func Plain(hc *http.Client, key string) Client {
	return Client{Name: "plain", Page: func(ctx context.Context, base string) (int, error) {
		n := 0
		for skip := 0; ; skip += Rows {
			url := fmt.Sprintf("%s/open/experiments/chart-table-data?chartId=101&rcId=10101&skip=%d&take=%d", base, skip, Rows)
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			if err != nil {
				return n, err
			}
			req.Header.Set("Authorization", key)
			resp, err := hc.Do(req)
			if err != nil {
				return n, err
			}
			var page PlainPage
			err = json.NewDecoder(resp.Body).Decode(&page)
			resp.Body.Close()
			if err != nil {
				return n, err
			}
			n += len(page.EntityList)
			if len(page.EntityList) < Rows {
				return n, nil
			}
		}
	}}
}

// OapiCodegen is the bare client oapi-codegen generated, parsing answers
// into the generated models through their UnmarshalJSON.
func OapiCodegen(hc *http.Client, key string) Client {
	return Client{Name: "oapi-codegen", Page: func(ctx context.Context, base string) (int, error) {
		c, err := gen.NewClientWithResponses(base+"/", gen.WithHTTPClient(hc), gen.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			req.Header.Set("Authorization", key)
			return nil
		}))
		if err != nil {
			return 0, err
		}
		n := 0
		for skip := int32(0); ; skip += Rows {
			take := int32(Rows)
			resp, err := c.GetExperimentRunResultChartTableDataWithResponse(ctx,
				&gen.GetExperimentRunResultChartTableDataParams{RcId: 10101, ChartId: 101, Skip: skip, Take: take})
			if err != nil {
				return n, err
			}
			if resp.JSON200 == nil {
				return n, fmt.Errorf("status %d", resp.StatusCode())
			}
			n += len(resp.JSON200.EntityList)
			if len(resp.JSON200.EntityList) < Rows {
				return n, nil
			}
		}
	}}
}
