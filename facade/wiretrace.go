package facade

import (
	"context"
	"crypto/tls"
	"errors"
	"net/http/httptrace"
	"sync/atomic"
)

// wireTrace follows how far one attempt's request got on the wire, through
// net/http/httptrace: until the request's headers were written whole, the
// server cannot have the request, whatever failed.
type wireTrace struct {
	connected atomic.Bool // a connection for the request was had
	wrote     atomic.Bool // the request's headers were written: the server may have it
	progress  func()      // told of each step (the watchdog's touch), or nil
	sentAll   func()      // told when the whole request was written, or nil
}

// with returns ctx carrying the trace, besides any trace ctx has.
func (w *wireTrace) with(ctx context.Context) context.Context {
	step := func() {
		if w.progress != nil {
			w.progress()
		}
	}
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		ConnectDone:      func(string, string, error) { step() },
		TLSHandshakeDone: func(tls.ConnectionState, error) { step() },
		GotConn:          func(httptrace.GotConnInfo) { w.connected.Store(true); step() },
		WroteHeaders:     func() { w.wrote.Store(true); step() },
		WroteRequest: func(httptrace.WroteRequestInfo) {
			if w.sentAll != nil {
				w.sentAll()
			}
		},
		Got100Continue:       step,
		GotFirstResponseByte: step,
	})
}

// errNotWritten marks a failure of a request without a body before any of
// it was written: it was not sent, and sending it again is safe even when
// it changes state.
var errNotWritten = errors.New("nothing of the request was written")

// classify marks a failed attempt whose request was never written: as not
// sent, and, for a request without a body, as safe to send again (a body
// may be a stream read once, so a request with one is not sent twice).
func (w *wireTrace) classify(err error, hasBody bool) error {
	if err == nil || w.wrote.Load() || errors.Is(err, errNotSent) {
		return err
	}
	if hasBody {
		return unsentError{err}
	}
	return unwrittenError{err}
}

// unwrittenError is a failure before any of a body-less request was
// written: it matches errNotSent and errNotWritten, and reads as, and
// unwraps to, the failure alone (errors.Unwrap walks through it).
type unwrittenError struct{ error }

func (e unwrittenError) Unwrap() error { return e.error }

func (e unwrittenError) Is(target error) bool { return target == errNotSent || target == errNotWritten }
