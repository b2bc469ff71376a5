package fake

import (
	"errors"
	"net/http"

	"github.com/scmodel/scmgo/gen"
)

// notImplemented turns the answer of the generated fallback
// (gen.StrictUnimplemented, which service embeds) into a 501 with the usual
// {message, details} body, its message naming the operation: the spec has
// an operation that service has no method for yet. Any other error is
// returned as it is.
func notImplemented(err error) error {
	var ni *gen.NotImplementedError
	if !errors.As(err, &ni) {
		return err
	}
	return errorf(http.StatusNotImplemented, "not implemented by the fake server")
}
