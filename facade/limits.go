package facade

import (
	"cmp"
	"fmt"
	"io"

	"github.com/scmodel/scmgo/limits"
)

// Limits bound what a server can make the client hold, log or do. A server
// that sends more than a limit allows gets a [*limits.Error] naming the
// operation and the limit, never a silently shortened answer. Zero fields
// take the defaults of [DefaultLimits]; a negative field is refused.
type Limits struct {
	// MaxBodyBytes bounds a successful answer's body, whether decoded
	// whole, decoded as a stream (a list), or handed to the caller by
	// [Client.Call], and a download read into memory by
	// [Download.ReadAll]. Default 1 GiB. A download read with Read or
	// WriteTo is bounded by the caller's writer, not by this limit; an
	// error's body is quoted up to 64 KiB, the rest not read.
	MaxBodyBytes int64
	// MaxDriftFindings bounds the drift findings one client keeps and logs;
	// past it, findings are counted but neither kept nor logged. Default
	// 1000.
	MaxDriftFindings int
	// MaxReportedLen bounds the length in bytes of a name or value from
	// the server quoted in a drift finding, a log line, an observer's
	// state or an error ([*APIError]'s message, [*StateError]'s state,
	// message and details, [*MalformedError]'s names, the state of a wait's
	// error at MaxWait); longer ones are cut and marked, the fields keeping
	// them whole. Default 256. Other values an error quotes (the caller's
	// input, a URL, a certificate's names, a download's headers, the
	// reason a job did not start) are cut at 200 bytes.
	MaxReportedLen int
	// MaxListedFields bounds the property names an error lists, e.g. a
	// [*MalformedError]'s Has; the rest are counted. Default 32.
	MaxListedFields int
	// MaxUnknownStates bounds the state values outside the known ones (a
	// run's genericState, a job's status) one client remembers, to log
	// each once; past it, new values are counted, neither kept nor
	// logged, only counted. Default 100.
	MaxUnknownStates int
}

// DefaultLimits returns the limits used when [WithLimits] is not.
func DefaultLimits() Limits {
	return Limits{MaxBodyBytes: 1 << 30, MaxDriftFindings: 1000, MaxReportedLen: 256, MaxListedFields: 32, MaxUnknownStates: 100}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	l.MaxBodyBytes = cmp.Or(l.MaxBodyBytes, d.MaxBodyBytes)
	l.MaxDriftFindings = cmp.Or(l.MaxDriftFindings, d.MaxDriftFindings)
	l.MaxReportedLen = cmp.Or(l.MaxReportedLen, d.MaxReportedLen)
	l.MaxListedFields = cmp.Or(l.MaxListedFields, d.MaxListedFields)
	l.MaxUnknownStates = cmp.Or(l.MaxUnknownStates, d.MaxUnknownStates)
	return l
}

func (l Limits) validate() error {
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"MaxBodyBytes", l.MaxBodyBytes}, {"MaxDriftFindings", int64(l.MaxDriftFindings)},
		{"MaxReportedLen", int64(l.MaxReportedLen)}, {"MaxListedFields", int64(l.MaxListedFields)},
		{"MaxUnknownStates", int64(l.MaxUnknownStates)},
	} {
		if f.v < 0 {
			return fmt.Errorf("facade: WithLimits: %s must not be negative, got %d", f.name, f.v)
		}
	}
	return nil
}

// WithLimits sets the limits on what a server sends; zero fields keep
// their defaults ([DefaultLimits]).
func WithLimits(l Limits) Option {
	return func(c *config) error {
		if err := l.validate(); err != nil {
			return err
		}
		c.limits = l.withDefaults()
		return nil
	}
}

// limitError is the error of what going past the facade's limit named
// limit, whose value is max, in op; unit is what max counts.
func limitError(op, limit string, max int64, unit, what string) *limits.Error {
	return &limits.Error{Package: "facade", Operation: op, Limit: limit, Max: max, Unit: unit, What: what}
}

// cappedBody is a response body read through Limits.MaxBodyBytes, as
// net/http's MaxBytesReader reads a request: at most left bytes are handed
// out, and the read that finds one byte more fails with a [*limits.Error].
type cappedBody struct {
	io.ReadCloser
	left int64         // bytes still allowed; -1 once the limit was passed
	err  *limits.Error // what a read past the limit returns
}

// capBody returns body read through the MaxBodyBytes of l, for operation op.
func (l Limits) capBody(op string, body io.ReadCloser) *cappedBody {
	max := l.withDefaults().MaxBodyBytes
	return &cappedBody{ReadCloser: body, left: max,
		err: limitError(op, "Limits.MaxBodyBytes", max, "bytes", "the answer's body")}
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, b.err
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1] // one byte more than allowed tells a body at the limit from one past it
	}
	n, err := b.ReadCloser.Read(p)
	if int64(n) > b.left {
		n, b.left = int(b.left), -1
		return n, b.err
	}
	b.left -= int64(n)
	return n, err
}
