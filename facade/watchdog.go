package facade

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scmodel/scmgo/clock"
)

// watchdog ends an attempt that makes no progress for its idle limit (the
// attempt timeout). Progress is any byte of the request body taken by the
// transport, the response headers, and any byte of the response body read.
// The limit bounds waiting on the server, not a transfer that is moving: a
// 1 GiB upload at 1 MB/s is fine, a connection that stops moving is not.
// While the caller is not reading the response body, its slowness is not the
// server's: the watchdog waits. For an operation the server holds open while
// it works (gen.Operation.HeldOpen), the wait for the response once the
// request is written is not bounded: the caller's context bounds it, and TCP
// keep-alive finds a dead connection (see keepAlive).
type watchdog struct {
	clock  watchClock
	idle   time.Duration
	cancel context.CancelFunc
	wire   *wireTrace // how far the request got: before its headers are written, nothing was sent

	last    atomic.Int64 // the last progress, in Unix nanoseconds: set on every read, without the lock
	waiting atomic.Bool  // on the server: sending, awaiting headers, or in a body Read

	mu      sync.Mutex
	timer   clock.Timer
	phase   string // what was waited for, for the error
	fired   bool
	stopped bool
}

// Phases of an attempt, as its timeout error names them.
const (
	phaseConnecting = "while connecting"
	phaseHeaders    = "while sending the request"
	phaseSending    = "while sending the request body"
	phaseAwaiting   = "waiting for the response"
	phaseReceiving  = "while receiving the response body"
)

func newWatchdog(clock watchClock, idle time.Duration, cancel context.CancelFunc, sending, heldOpen bool, wire *wireTrace) *watchdog {
	w := &watchdog{clock: clock, idle: idle, cancel: cancel, phase: phaseAwaiting, wire: wire}
	wire.progress = w.touch
	if heldOpen {
		wire.sentAll = w.held
	}
	w.touch()
	w.waiting.Store(true)
	if sending {
		w.phase = phaseSending
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.timer = clock.AfterFunc(idle, w.check)
	return w
}

// watchClock is the time source of the watchdog: the client's clock when
// it has timers (clock.TimerClock), as the real and virtual clocks do, so
// a stall on virtual time is found without waiting for it.
type watchClock = clock.TimerClock

// watchClockOf is the watchdog's clock of a client whose clock is clk: clk,
// or, for a clock that has only After, timers made of its After.
func watchClockOf(clk Clock) watchClock {
	if tc, ok := clk.(clock.TimerClock); ok {
		return tc
	}
	return afterTimers{clk}
}

// afterTimers makes the timers of a clock that has only After: each timer
// is a goroutine waiting on After until it fires or is stopped.
type afterTimers struct{ Clock }

func (c afterTimers) AfterFunc(d time.Duration, f func()) clock.Timer {
	t := &afterTimer{c: c.Clock, f: f}
	t.Reset(d)
	return t
}

// afterTimer is a timer of afterTimers.
type afterTimer struct {
	c    Clock
	f    func()
	mu   sync.Mutex
	stop chan struct{} // closed to stop the pending wait; nil when none
}

func (t *afterTimer) Reset(d time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	was := t.stopLocked()
	stop := make(chan struct{})
	t.stop = stop
	fire := t.c.After(d)
	go func() {
		select {
		case <-fire:
		case <-stop:
			return
		}
		t.mu.Lock()
		mine := t.stop == stop
		if mine {
			t.stop = nil
		}
		t.mu.Unlock()
		if mine {
			t.f()
		}
	}()
	return was
}

func (t *afterTimer) Stop() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stopLocked()
}

// stopLocked stops the pending wait, if any; t.mu is held.
func (t *afterTimer) stopLocked() bool {
	if t.stop == nil {
		return false
	}
	close(t.stop)
	t.stop = nil
	return true
}

// check runs when the idle limit may have passed: it ends the attempt, or
// sets the timer for the rest of the limit.
func (w *watchdog) check() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	quiet := w.clock.Now().Sub(time.Unix(0, w.last.Load()))
	if !w.waiting.Load() || quiet < w.idle {
		w.timer.Reset(max(w.idle-quiet, time.Millisecond))
		return
	}
	w.fired = true
	w.cancel()
}

// touch notes that bytes moved.
func (w *watchdog) touch() { w.last.Store(w.clock.Now().UnixNano()) }

// sent notes that the request body was sent whole: the response is awaited.
func (w *watchdog) sent() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.touch()
	w.phase = phaseAwaiting
}

// held notes that the whole request of a call the server holds open was
// written: its answer is awaited as long as the caller allows.
func (w *watchdog) held() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.phase = phaseAwaiting
	w.waiting.Store(false)
}

// wait marks the start (true) or end (false) of waiting on the server.
func (w *watchdog) wait(on bool) {
	if on && !w.waiting.Load() {
		w.touch() // the caller's own pause is not the server's
	}
	w.waiting.Store(on)
}

// stop ends the watch.
func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	w.timer.Stop()
}

// answered notes that the response headers arrived (or the round trip
// failed): the caller reads the body next. It reports whether the watchdog
// had ended the attempt before, and then stops it.
func (w *watchdog) answered() (fired bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fired {
		w.stopped = true
		w.timer.Stop()
		return true
	}
	w.touch()
	w.phase = phaseReceiving
	w.waiting.Store(false)
	return false
}

// err is the error of an attempt the watchdog ended, wrapping cause; cause
// itself when the watchdog did not end it.
func (w *watchdog) err(cause error) error {
	w.mu.Lock()
	fired, phase := w.fired, w.phase
	w.mu.Unlock()
	if !fired {
		return cause
	}
	switch {
	case !w.wire.connected.Load():
		phase = phaseConnecting
	case !w.wire.wrote.Load():
		phase = phaseHeaders
	}
	err := fmt.Errorf("%w: nothing moved for %v %s", errAttemptTimeout, w.idle, phase)
	if cause != nil && !errors.Is(cause, context.Canceled) { // the watchdog's own cancellation says nothing more
		err = fmt.Errorf("%w: %w", err, cause)
	}
	if phase == phaseSending {
		// The body never arrived whole: the server cannot have acted on it.
		err = unsentError{err}
	} // before the headers were written, wireTrace.classify says so
	return err
}

// sendingBody is a request body whose reads are progress. The body counts
// as sent once the transport has taken its last byte: at EOF, or, for a
// body of known length, when that many bytes were taken (the transport
// writes them before it reads on to find the EOF, so the server may have
// the whole request by then).
type sendingBody struct {
	io.ReadCloser
	w    *watchdog
	left int64 // bytes still to send, -1 when the length is not known
}

func (b *sendingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.left > 0 {
		b.left = max(b.left-int64(n), 0)
	}
	switch {
	case errors.Is(err, io.EOF) || b.left == 0:
		b.w.sent()
	case n > 0:
		b.w.touch()
	}
	return n, err
}

// receivingBody is a response body whose reads wait on the server, and
// whose Close ends the attempt.
type receivingBody struct {
	io.ReadCloser
	w      *watchdog
	cancel context.CancelFunc
}

func (b *receivingBody) Read(p []byte) (int, error) {
	b.w.wait(true)
	n, err := b.ReadCloser.Read(p)
	b.w.wait(false)
	if n > 0 {
		b.w.touch()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		err = b.w.err(err)
	}
	return n, err
}

func (b *receivingBody) Close() error {
	err := b.ReadCloser.Close()
	b.w.stop()
	b.cancel()
	return err
}

// unsentError is a failure that left the server without the whole request:
// it matches errNotSent, and reads as, and unwraps to, the failure alone.
type unsentError struct{ error }

func (e unsentError) Unwrap() error { return e.error }

func (e unsentError) Is(target error) bool { return target == errNotSent }
