package fake

import (
	"errors"
	"net/http"

	"github.com/scmodel/scmgo/fake/internal/genserver"
)

// notImplemented turns the answer of the generated fallback
// (genserver.StrictUnimplemented, which service embeds) into a 501 with the
// usual {message, details} body, its message naming the operation: the spec has
// an operation that service has no method for yet. Any other error is
// returned as it is.
func notImplemented(err error) error {
	var ni *genserver.NotImplementedError
	if !errors.As(err, &ni) {
		return err
	}
	return errorf(http.StatusNotImplemented, "not implemented by the fake server")
}
