package facade

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http/httptrace"
	"sync/atomic"
)

// wireTrace follows how far one attempt's request got on the wire, through
// net/http/httptrace: until the request's headers were written whole, the
// server cannot have the request, whatever failed.
type wireTrace struct {
	connected atomic.Bool              // a connection for the request was had
	wrote     atomic.Bool              // the request's headers were written: the server may have it
	conn      atomic.Pointer[tls.Conn] // the request's TLS connection, if any
	progress  func()                   // told of each step (the watchdog's touch), or nil
	sentAll   func()                   // told when the whole request was written, or nil
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
		GotConn: func(info httptrace.GotConnInfo) {
			w.connected.Store(true)
			if tc, ok := info.Conn.(*tls.Conn); ok {
				w.conn.Store(tc)
			}
			step()
		},
		WroteHeaders: func() { w.wrote.Store(true); step() },
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
//
// A request without a body whose writing failed is not complete on the
// server's side either, and is marked so too: a write that fails does not
// send its end, and the request's last write carries the end of its
// headers (the transport writes them whole, then flushes them). That is how a TLS 1.3
// handshake the server refuses often ends: the client's side of the
// handshake is over before the server has checked it, so the request is
// being written when the server's alert closes the connection. The alert
// is then added to the error, so that it can be told from a failure of
// the network.
func (w *wireTrace) classify(err error, hasBody bool) error {
	if err == nil || errors.Is(err, errNotSent) {
		return err
	}
	err = w.withAlert(err)
	if w.wrote.Load() && (hasBody || !writeFailed(err)) {
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

// withAlert returns err with the alert the server sent on the request's
// TLS connection, when the connection was closed under the request and
// the alert is why: the transport reports the write that failed, not the
// alert its reader got.
func (w *wireTrace) withAlert(err error) error {
	tc := w.conn.Load()
	if tc == nil || !errors.Is(err, net.ErrClosed) {
		return err
	}
	// The connection is closed: a read returns at once, with the error
	// that closed it when that was the server's alert.
	var one [1]byte
	if _, rerr := tc.Read(one[:]); serverAlert(rerr) {
		return fmt.Errorf("%w (the server sent a TLS alert: %w)", err, rerr)
	}
	return err
}

// writeFailed reports whether err is the failure of a write to the
// request's connection.
func writeFailed(err error) bool {
	return anyError(err, func(e error) bool {
		op, ok := e.(*net.OpError)
		return ok && op.Op == "write"
	})
}

// serverAlert reports whether err is, or wraps, a TLS alert the server
// sent: crypto/tls reports one as a *net.OpError whose Op is "remote
// error".
func serverAlert(err error) bool {
	return anyError(err, func(e error) bool {
		op, ok := e.(*net.OpError)
		_, alert := e.(tls.AlertError)
		return alert || ok && op.Op == "remote error"
	})
}

// anyError reports whether f holds for err or any error it wraps, through
// Unwrap() error and Unwrap() []error alike. errors.As stops at the first
// error of a type, where a chain may hold two *net.OpError.
func anyError(err error, f func(error) bool) bool {
	if err == nil {
		return false
	}
	if f(err) {
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return anyError(u.Unwrap(), f)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if anyError(e, f) {
				return true
			}
		}
	}
	return false
}
