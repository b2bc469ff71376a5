package facade

import (
	"cmp"
	"errors"
	"fmt"
)

// Limits bound what a server can make the client hold, log or do. A server
// that sends more than a limit allows gets a [*LimitError] naming the
// operation and the limit, never a silently shortened answer. Zero fields
// take the defaults of [DefaultLimits]; a negative field is refused.
type Limits struct {
	// MaxBodyBytes bounds a successful answer's body, read or decoded.
	// Default 1 GiB. Downloads ([Download]) are bounded by the caller's
	// writer, not by this limit.
	MaxBodyBytes int64
	// MaxDriftFindings bounds the drift findings one client keeps and logs;
	// past it, findings are counted but neither kept nor logged. Default
	// 1000.
	MaxDriftFindings int
	// MaxReportedLen bounds the length in bytes of a name or value quoted
	// in a drift finding, an error or a log line; longer ones are cut and
	// marked. Default 256.
	MaxReportedLen int
	// MaxListedFields bounds the property names an error lists, e.g. a
	// [*MissingFieldError]'s Has; the rest are counted. Default 32.
	MaxListedFields int
}

// DefaultLimits returns the limits used when [WithLimits] is not.
func DefaultLimits() Limits {
	return Limits{MaxBodyBytes: 1 << 30, MaxDriftFindings: 1000, MaxReportedLen: 256, MaxListedFields: 32}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	l.MaxBodyBytes = cmp.Or(l.MaxBodyBytes, d.MaxBodyBytes)
	l.MaxDriftFindings = cmp.Or(l.MaxDriftFindings, d.MaxDriftFindings)
	l.MaxReportedLen = cmp.Or(l.MaxReportedLen, d.MaxReportedLen)
	l.MaxListedFields = cmp.Or(l.MaxListedFields, d.MaxListedFields)
	return l
}

func (l Limits) validate() error {
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"MaxBodyBytes", l.MaxBodyBytes}, {"MaxDriftFindings", int64(l.MaxDriftFindings)},
		{"MaxReportedLen", int64(l.MaxReportedLen)}, {"MaxListedFields", int64(l.MaxListedFields)},
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

// ErrLimit matches every [*LimitError].
var ErrLimit = errors.New("limit exceeded")

// LimitError is an answer, or a part of one, larger than a limit allows.
// It matches [ErrLimit].
type LimitError struct {
	Operation string // camelCase operationId, "" when not one operation's
	Limit     string // the limit's name, e.g. "Limits.MaxBodyBytes"
	Max       int64  // the limit's value
	What      string // what exceeded it, e.g. "the answer's body"
}

func (e *LimitError) Error() string {
	op := ""
	if e.Operation != "" {
		op = e.Operation + ": "
	}
	return fmt.Sprintf("facade: %s%s exceeds %s (%d): raise it if the server is trusted to send more", op, e.What, e.Limit, e.Max)
}

// Is matches ErrLimit.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }
