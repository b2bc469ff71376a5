package scmotel_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/scmotel"
)

// The package documentation's snippet: a client observed through the
// global tracer provider (set here to one that keeps its spans in memory;
// a program would export them over OTLP). A call is a span named by its
// operationId, holding a span per HTTP attempt.
func Example_packageDoc() {
	srv := fake.NewServer()
	defer srv.Close()
	baseURL, key := srv.URL, srv.APIKey
	spans := tracetest.NewInMemoryExporter()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans)))

	c, err := facade.New(baseURL, facade.WithAPIKey(key), scmotel.WithTelemetry())
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.User.Current(ctx); err != nil {
		log.Fatal(err)
	}
	for _, s := range spans.GetSpans() { // in the order they ended
		fmt.Println(s.Name, s.SpanKind)
	}
	// Output:
	// GET /open/user client
	// getCurrentUser client
}
