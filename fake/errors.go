package fake

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// apiError is an error answer: a status and its message.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) error {
	return &apiError{status: status, msg: fmt.Sprintf(format, args...)}
}

// badRequest answers a request that does not match the spec (a parameter or
// body field missing or of the wrong type, take above MaxTake): 400, as the
// framework in front of the real server answers before its application
// sees the call. writeAPIError puts the operation's name before the message.
func badRequest(format string, args ...any) error {
	return errorf(http.StatusBadRequest, format, args...)
}

// failure answers what the server's application decides: an unknown or
// stale id, a conflict with the current state, a rule broken, access
// denied. The real server answers every such error with 500 and its own
// message, without the operation's name.
func failure(format string, args ...any) error {
	return errorf(http.StatusInternalServerError, format, args...)
}

// notFound answers an unknown or stale id (a failure): the message names it.
func notFound(format string, args ...any) error { return failure(format, args...) }

// The messages the real server was recorded answering.
const (
	msgAccessDenied   = "Access is denied"
	msgDashboardEmpty = "Dashboard is empty"
	msgNotLinkType    = "Tables exist only for link data types"
	msgRunIsNull      = `Cannot invoke "com.scm.server.experiment.Run.getId()" because "run" is null`
)

// requestError answers a request the generated binding could not decode.
func (h *Handler) requestError(w http.ResponseWriter, r *http.Request, err error) {
	h.writeError(w, r, http.StatusBadRequest, err.Error())
}

// responseError answers an error a handler returned.
func (h *Handler) responseError(w http.ResponseWriter, r *http.Request, err error) {
	h.writeAPIError(w, r, notImplemented(err))
}

// writeAPIError answers err: an application failure (500) with its message
// as it is, any other status with the operation's name before it. An error
// that is no apiError is a failure of the server itself.
func (h *Handler) writeAPIError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{status: http.StatusInternalServerError, msg: err.Error()}
	}
	if ae.status == http.StatusInternalServerError {
		writeErrorBody(w, ae.status, ae.msg)
		return
	}
	h.writeError(w, r, ae.status, ae.msg)
}

// writeError answers status with a message that starts with the
// operation's name.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if op := opFrom(r.Context()); op.ID != "" {
		msg = op.ID + ": " + msg
	}
	writeErrorBody(w, status, msg)
}

// errorHeaders are the headers of every error answer a real server was
// recorded giving, from the nginx in front of it (Content-Type aside).
var errorHeaders = map[string]string{
	"Server": "nginx", "X-Content-Type-Options": "nosniff", "X-XSS-Protection": "1; mode=block",
	"Cache-Control": "no-cache, no-store, max-age=0, must-revalidate", "Pragma": "no-cache", "Expires": "0",
	"X-Frame-Options": "DENY", "Strict-Transport-Security": "max-age=31536000",
}

// errorBody is every error answer, as the real server writes it:
// {"message": "...", "details": {}}.
type errorBody struct {
	Message string          `json:"message"`
	Details json.RawMessage `json:"details"`
}

func writeErrorBody(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(errorBody{Message: msg, Details: json.RawMessage("{}")})
	for k, v := range errorHeaders {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

func ptr[T any](v T) *T { return &v }
