package facade

import "context"

// operationKey keys the operation id in a request's context.
type operationKey struct{}

// OperationFromContext returns the camelCase operationId of the call a
// request belongs to. Every request the client sends carries it in its
// context, so a RoundTripper given with [WithHTTPClient] (a tracing or
// metrics transport) can name spans and series by operation.
func OperationFromContext(ctx context.Context) (string, bool) {
	op, ok := ctx.Value(operationKey{}).(string)
	return op, ok
}
