package jsondec

import (
	"context"

	"github.com/scmodel/scmgo/drift"
)

// Options are the settings of one decode. The zero value decodes without
// cancellation and drops the differences found.
type Options struct {
	// Context, when not nil, is checked every CheckEvery bytes of the
	// document: once it is done, decoding stops with an [*Error] that
	// wraps its error.
	Context context.Context
	// Root names the answer in the paths of values outside a model
	// (specdiff names it "<operationId> 200 response"); "" is "answer".
	Root string
	// Note, when not nil, is handed each difference found, once per kind
	// and place (and value, for a value outside an enumeration; a value
	// kept raw apart from one converted).
	Note func(drift.Finding)
	// MaxFindings bounds the differences one document keeps for Note.
	// Past it they are counted, not kept, and Dropped is told how many.
	// Zero means DefaultMaxFindings.
	MaxFindings int
	// MaxReportedLen bounds the bytes of a name or value from the
	// document quoted in a finding (an unknown field's name, a value
	// outside an enumeration); longer ones are cut and marked. Zero means
	// DefaultMaxReportedLen.
	MaxReportedLen int
	// Dropped, when not nil, is told once, at the end of a document that
	// had more differences than MaxFindings, how many it did not keep. A
	// difference that recurs past the bound counts each time.
	Dropped func(n int)
}

// The defaults of Options, and how often the context is checked.
const (
	DefaultMaxFindings    = 1000
	DefaultMaxReportedLen = 256
	CheckEvery            = 64 << 10
)

func (o *Options) maxFindings() int {
	if o == nil || o.MaxFindings <= 0 {
		return DefaultMaxFindings
	}
	return o.MaxFindings
}

func (o *Options) maxReportedLen() int {
	if o == nil || o.MaxReportedLen <= 0 {
		return DefaultMaxReportedLen
	}
	return o.MaxReportedLen
}

// watch arms the periodic check of the context of o.
func (r *Reader) watch(o *Options) {
	r.ctx, r.checkAt = nil, maxInt
	if o != nil && o.Context != nil && o.Context.Done() != nil {
		r.ctx, r.checkAt = o.Context, CheckEvery
	}
}

const maxInt = int(^uint(0) >> 1)

// check stops decoding once the context is done; it is called when the
// reader has passed checkAt.
func (r *Reader) check() bool {
	if r.ctx == nil {
		r.checkAt = maxInt
		return true
	}
	r.checkAt = r.pos + CheckEvery
	if err := r.ctx.Err(); err != nil {
		if r.err == nil {
			r.err = &Error{Offset: int64(r.pos), Msg: "decoding stopped: " + err.Error(), cause: err}
		}
		return false
	}
	return true
}
