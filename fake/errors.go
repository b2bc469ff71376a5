package fake

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/scmodel/scmgo/gen"
)

// apiError is an error answer: a status and a message that names the field.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) error {
	return &apiError{status: status, msg: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) error {
	return errorf(http.StatusBadRequest, format, args...)
}

// notFound answers an unknown or stale id the way the real server does: 500,
// with a message that names what was not found.
func notFound(format string, args ...any) error {
	return errorf(http.StatusInternalServerError, format, args...)
}
func conflict(format string, args ...any) error { return errorf(http.StatusConflict, format, args...) }

// requestError answers a request the generated binding could not decode.
func (h *Handler) requestError(w http.ResponseWriter, r *http.Request, err error) {
	h.writeError(w, r, http.StatusBadRequest, err.Error())
}

// responseError answers an error a handler returned.
func (h *Handler) responseError(w http.ResponseWriter, r *http.Request, err error) {
	h.writeAPIError(w, r, err)
}

func (h *Handler) writeAPIError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{status: http.StatusInternalServerError, msg: err.Error()}
	}
	h.writeError(w, r, ae.status, ae.msg)
}

// writeError writes an ApiError body whose message starts with the
// operation's name.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if op := opFrom(r.Context()); op.ID != "" {
		msg = op.ID + ": " + msg
	}
	body := gen.ApiError{
		Status:    ptr(int32(status)),
		Error:     ptr(http.StatusText(status)),
		Message:   &msg,
		Path:      ptr(r.URL.Path),
		Timestamp: ptr(h.cfg.clock.Now().UTC().Format(time.RFC3339)),
	}
	b, _ := json.Marshal(body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

func ptr[T any](v T) *T { return &v }
