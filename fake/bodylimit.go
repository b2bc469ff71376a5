package fake

import (
	"errors"
	"net/http"

	"github.com/scmodel/scmgo/gen"
)

// limitBody bounds the call's request body: a multipart body by the upload
// limit (WithMaxUpload), any other by MaxJSONBody. A body declared larger
// is refused at once, before any of it is read; one of unknown length is
// cut by http.MaxBytesReader as soon as it passes the limit, and the
// readers of the body turn that into the same 413 (see bodyReadError).
// net/http then closes the connection instead of reading the rest.
func (h *Handler) limitBody(w http.ResponseWriter, r *http.Request, op gen.Operation) error {
	limit := int64(MaxJSONBody)
	if isMultipart(op) {
		limit = h.cfg.maxUpload
	}
	if r.ContentLength > limit {
		return tooLarge(limit)
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, limit)
	}
	return nil
}

func isMultipart(op gen.Operation) bool {
	return op.Body != nil && op.Body.MediaType == "multipart/form-data"
}

func tooLarge(limit int64) error {
	return errorf(http.StatusRequestEntityTooLarge, "request body: larger than the server's limit of %s", amount(limit, ""))
}

// bodyReadError is the answer to an error met reading the request body at
// what: 413 when the body passed its limit, 400 otherwise.
func bodyReadError(what string, err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return tooLarge(mbe.Limit)
	}
	return badRequest("%s: %s", what, clip(err.Error()))
}
