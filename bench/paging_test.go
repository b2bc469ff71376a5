package bench

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/scmodel/scmgo/bench/internal/pagebench"
	"github.com/scmodel/scmgo/bench/ogenclient"
	"github.com/scmodel/scmgo/facade"
)

const key = "sk-bench-key"

// facadeClient pages with the facade as a user would: a client with the
// defaults and the table's row iterator.
func facadeClient() pagebench.Client {
	return pagebench.Client{Name: "facade", Page: func(ctx context.Context, base string) (int, error) {
		c, err := facade.New(base, facade.WithAPIKey(key))
		if err != nil {
			return 0, err
		}
		defer c.CloseIdleConnections()
		n := 0
		for _, err := range c.Results.ChartTableRows(ctx, 10101, 101, nil) {
			if err != nil {
				return n, err
			}
			n++
		}
		return n, nil
	}}
}

type apiKey string

func (k apiKey) ApiKey(context.Context, ogenclient.OperationName) (ogenclient.ApiKey, error) {
	return ogenclient.ApiKey{APIKey: string(k)}, nil
}

// ogenClient pages with the client ogen generated from api/openapi.yaml.
func ogenClient(hc *http.Client) pagebench.Client {
	return pagebench.Client{Name: "ogen", Page: func(ctx context.Context, base string) (int, error) {
		c, err := ogenclient.NewClient(base, apiKey(key), ogenclient.WithClient(hc))
		if err != nil {
			return 0, err
		}
		n := 0
		for skip := int32(0); ; skip += pagebench.Rows {
			res, err := c.GetExperimentRunResultChartTableData(ctx, ogenclient.GetExperimentRunResultChartTableDataParams{
				RcId: 10101, ChartId: 101, Skip: skip, Take: pagebench.Rows})
			if err != nil {
				return n, err
			}
			page, ok := res.(*ogenclient.ApiStrictTableChartData)
			if !ok {
				return n, fmt.Errorf("answer %T", res)
			}
			n += len(page.EntityList)
			if len(page.EntityList) < pagebench.Rows {
				return n, nil
			}
		}
	}}
}

// BenchmarkPaging: 100 pages × 1000 table rows over loopback for each row
// shape, in the same run: the facade, an ogen client, the bare oapi-codegen
// client and a plain net/http + encoding/json loop into plain structs. It
// reports each client's ns and allocations per row and the facade's ratios.
func BenchmarkPaging(b *testing.B) {
	hc := &http.Client{Transport: pagebench.Transport()}
	defer hc.CloseIdleConnections()
	for _, shape := range pagebench.Shapes {
		b.Run(shape.Name, func(b *testing.B) {
			pagebench.Run(b, shape, facadeClient(), ogenClient(hc), pagebench.Plain(hc, key), pagebench.OapiCodegen(hc, key))
		})
	}
}
