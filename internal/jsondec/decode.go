package jsondec

import "github.com/scmodel/scmgo/drift"

// Begin returns a Reader of the document data, for the generated decoders
// to read its value. Finish returns it.
func Begin(data []byte) *Reader { return newReader(data) }

// Finish ends the reading of a document whose value was read with outcome
// st at the site root: it checks that only white space follows, hands the
// differences found to note (when not nil), each once, and releases r,
// which must not be used again. The error is an [*Error] when the document
// is malformed; differences are never errors.
func (r *Reader) Finish(st Status, root *Site, note func(drift.Finding)) error {
	defer r.release()
	if st != Failed {
		r.Elem(st, root)
		r.end()
	}
	if r.err != nil {
		return r.err
	}
	r.report(note)
	return nil
}
