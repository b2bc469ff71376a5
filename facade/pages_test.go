package facade

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

// pagesCase drives one paged operation both ways, through the page
// iterator tagged //scm:pages with it and through its item iterator, with
// the same options. Both answer each item as its JSON, so that the two can
// be compared whatever the item type.
type pagesCase struct {
	op    gen.OperationID
	pages func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[[]string, error]
	items func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[string, error]
}

// pagesOf turns a page iterator into one of each page's items as JSON.
func pagesOf[P, T any](seq iter.Seq2[P, error], items func(P) []T) iter.Seq2[[]string, error] {
	return func(yield func([]string, error) bool) {
		for page, err := range seq {
			var out []string
			if err == nil {
				out, err = jsonEach(items(page))
			}
			if !yield(out, err) {
				return
			}
		}
	}
}

// itemsOfSeq turns an item iterator into one of each item as JSON.
func itemsOfSeq[T any](seq iter.Seq2[T, error]) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		for item, err := range seq {
			var out []byte
			if err == nil {
				out, err = json.Marshal(item)
			}
			if !yield(string(out), err) {
				return
			}
		}
	}
}

func jsonEach[T any](items []T) ([]string, error) {
	out := make([]string, len(items))
	for i, item := range items {
		b, err := json.Marshal(item)
		if err != nil {
			return nil, err
		}
		out[i] = string(b)
	}
	return out, nil
}

func chartRows(p *gen.ApiStrictTableChartData) []gen.Row                              { return p.EntityList }
func dataRows(p *gen.ApiStrictTableData) []gen.Row                                    { return p.Rows }
func optionList(p *gen.ApiOptionList) []gen.ApiIdNameObject                           { return p.List }
func resultPages(p *gen.ApiExperimentResultData) []gen.ApiExperimentResultPageWrapper { return p.Pages }
func resultOptions(p []gen.ApiExperimentResultOption) []gen.ApiExperimentResultOption { return p }

var demandPeriod = ParameterRef{ObjectTypeID: "DemandData_SIM_FULL", ObjectID: "1", ParameterID: "period"}

// milkRuns are the options of the milk runs table: invalid runs shown.
func milkRuns(o *PageOptions) *MilkRunsOptions { return &MilkRunsOptions{PageOptions: *o} }

// pagesCases has a case per page iterator, keyed by its method.
func pagesCases() map[string]pagesCase {
	roads := gen.ApiOptionRequest{OptionName: ptr("roadNetwork")}
	return map[string]pagesCase{
		"ExperimentsService.OptionBatches": {gen.OpGetExperimentOptions,
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[[]string, error] {
				return pagesOf(e.c.Experiments.OptionBatches(ctx, roads, o), optionList)
			},
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[string, error] {
				return itemsOfSeq(e.c.Experiments.Options(ctx, roads, o))
			}},
		"ResultsService.ResultBatches": {gen.OpGetExperimentRunResult,
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[[]string, error] {
				return pagesOf(e.c.Results.ResultBatches(ctx, opRcGFA, o), resultPages)
			},
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[string, error] {
				return itemsOfSeq(e.c.Results.Result(ctx, opRcGFA, o))
			}},
		"ResultsService.ResultOptionBatches": {gen.OpGetExperimentRunResultOptions,
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[[]string, error] {
				return pagesOf(e.c.Results.ResultOptionBatches(ctx, opRcNO, o), resultOptions)
			},
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[string, error] {
				return itemsOfSeq(e.c.Results.ResultOptions(ctx, opRcNO, o))
			}},
		"ResultsService.ChartTableBatches": {gen.OpGetExperimentRunResultChartTableData,
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[[]string, error] {
				return pagesOf(e.c.Results.ChartTableBatches(ctx, opRcGFA, 101, o), chartRows)
			},
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[string, error] {
				return itemsOfSeq(e.c.Results.ChartTableRows(ctx, opRcGFA, 101, o))
			}},
		"LastMileService.OrderBatches": {gen.OpGetLastMileOptimizationOrdersTableData,
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[[]string, error] {
				return pagesOf(e.c.LastMile.OrderBatches(ctx, opRcLastMile, o), chartRows)
			},
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[string, error] {
				return itemsOfSeq(e.c.LastMile.Orders(ctx, opRcLastMile, o))
			}},
		"LastMileService.ShipmentBatches": {gen.OpGetLastMileOptimizationShipmentsTableData,
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[[]string, error] {
				return pagesOf(e.c.LastMile.ShipmentBatches(ctx, opRcLastMile, o), chartRows)
			},
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[string, error] {
				return itemsOfSeq(e.c.LastMile.Shipments(ctx, opRcLastMile, o))
			}},
		"LastMileService.MilkRunBatches": {gen.OpGetLastMileOptimizationMilkRunsTableData,
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[[]string, error] {
				return pagesOf(e.c.LastMile.MilkRunBatches(ctx, opRcLastMile, milkRuns(o)), chartRows)
			},
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[string, error] {
				return itemsOfSeq(e.c.LastMile.MilkRuns(ctx, opRcLastMile, milkRuns(o)))
			}},
		"VariationsService.ObjectBatches": {gen.OpGetVariableParameterObjects,
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[[]string, error] {
				return pagesOf(e.c.Variations.ObjectBatches(ctx, 101, "ProductData_SIM_FULL", o), optionList)
			},
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[string, error] {
				return itemsOfSeq(e.c.Variations.Objects(ctx, 101, "ProductData_SIM_FULL", o))
			}},
		"VariationsService.NewTableBatches": {gen.OpGetNewVariableParameterTableData,
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[[]string, error] {
				return pagesOf(e.c.Variations.NewTableBatches(ctx, opRcVariation, demandPeriod, gen.VariationTypeLINKLIST, o), dataRows)
			},
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[string, error] {
				return itemsOfSeq(e.c.Variations.NewTableRows(ctx, opRcVariation, demandPeriod, gen.VariationTypeLINKLIST, o))
			}},
		"VariationsService.ExistingTableBatches": {gen.OpGetExistingVariableParameterTableData,
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[[]string, error] {
				return pagesOf(e.c.Variations.ExistingTableBatches(ctx, opRcVariation, e.fx.variation, siteCapacity, gen.VariationTypeLINKLIST, o), dataRows)
			},
			func(ctx context.Context, e *opEnv, o *PageOptions) iter.Seq2[string, error] {
				return itemsOfSeq(e.c.Variations.ExistingTableRows(ctx, opRcVariation, e.fx.variation, siteCapacity, gen.VariationTypeLINKLIST, o))
			}},
	}
}

// pagesPageSize is small enough that every paged operation of the fixture
// takes several pages.
const pagesPageSize = 2

// TestEveryPageIterator calls each page iterator against the fake with
// small pages: the pages are full but the last, there are several, and
// together they hold exactly what the item iterator yields, in order, which
// is what the item iterator yields from one page of the default size.
func TestEveryPageIterator(t *testing.T) {
	cases := pagesCases()
	e := newOpEnv(t, nil)
	requirePagesCoverage(t, cases)
	for method, tc := range cases {
		t.Run(method, func(t *testing.T) {
			opts := &PageOptions{PageSize: pagesPageSize}
			pages := collectPageSeq(t, tc.pages(testCtx(t), e, opts))
			items := collectItemSeq(t, tc.items(testCtx(t), e, opts))
			require.GreaterOrEqual(t, len(pages), 2, "%s: the fixture must take several pages of %d", tc.op, pagesPageSize)
			var flat []string
			for i, page := range pages {
				if i < len(pages)-1 {
					assert.Len(t, page, pagesPageSize, "page %d of %d is not full", i+1, len(pages))
				}
				assert.NotEmpty(t, page, "page %d is empty", i+1)
				flat = append(flat, page...)
			}
			assert.Equal(t, items, flat, "the pages hold what the item iterator yields")
			all := collectItemSeq(t, tc.items(testCtx(t), e, &PageOptions{PageSize: DefaultPageSize}))
			assert.Equal(t, all, items, "small pages hold what one page of %d holds", DefaultPageSize)
		})
	}
}

// requirePagesCoverage fails unless every method tagged //scm:pages has a
// case, for the operation it is tagged with.
func requirePagesCoverage(t *testing.T, cases map[string]pagesCase) {
	t.Helper()
	_, pagesByOp := taggedMethods(t)
	for op, methods := range pagesByOp {
		for _, m := range methods {
			tc, ok := cases[m]
			if assert.True(t, ok, "page iterator %s (%s) has no case", m, op) {
				assert.Equal(t, op, string(tc.op), "the case of %s", m)
			}
		}
	}
	assert.Len(t, cases, len(pagesByOp), "cases for methods not tagged //scm:pages")
}

func collectPageSeq(t *testing.T, seq iter.Seq2[[]string, error]) [][]string {
	t.Helper()
	var pages [][]string
	for page, err := range seq {
		require.NoError(t, err)
		pages = append(pages, page)
	}
	return pages
}

func collectItemSeq(t *testing.T, seq iter.Seq2[string, error]) []string {
	t.Helper()
	var items []string
	for item, err := range seq {
		require.NoError(t, err)
		items = append(items, item)
	}
	return items
}

// badPageOptions are options every paged operation refuses, by the field
// the error names.
var badPageOptions = map[string]PageOptions{
	"PageSize": {PageSize: -1},
	"MaxItems": {MaxItems: -1},
	"StartAt":  {StartAt: -1},
	"Prefetch": {Prefetch: MaxPrefetch + 1},
}

// TestPageIteratorsRefuseBadOptions: bad PageOptions end both iterators of
// every paged operation with one *ValidationError naming the operation and
// the field, before anything is sent.
func TestPageIteratorsRefuseBadOptions(t *testing.T) {
	cases := pagesCases()
	e := newOpEnv(t, nil)
	for method, tc := range cases {
		for field, bad := range badPageOptions {
			t.Run(method+"/"+field, func(t *testing.T) {
				sent := e.rec.count()
				var pageErrs, itemErrs []error
				for _, err := range tc.pages(testCtx(t), e, &bad) {
					pageErrs = append(pageErrs, err)
				}
				for _, err := range tc.items(testCtx(t), e, &bad) {
					itemErrs = append(itemErrs, err)
				}
				for kind, errs := range map[string][]error{"page": pageErrs, "item": itemErrs} {
					require.Len(t, errs, 1, "the %s iterator yields once", kind)
					var verr *ValidationError
					require.True(t, errors.As(errs[0], &verr), "the %s iterator's error %v is a *ValidationError", kind, errs[0])
					assert.Equal(t, string(tc.op), verr.Operation, kind)
					assert.Equal(t, field, verr.Field, kind)
				}
				assert.Equal(t, sent, e.rec.count(), "requests sent with bad options")
			})
		}
	}
}
