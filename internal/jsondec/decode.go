package jsondec

// Begin returns a Reader of the document data, decoded with the options o
// (nil for none), for the generated decoders to read its value. Finish
// returns it.
func Begin(data []byte, o *Options) *Reader { return newReader(data, o) }

// Finish ends the reading of a document whose value was read with outcome
// st at the site root: it checks that only white space follows, hands the
// differences found to the options' Note, each once, and releases r, which
// must not be used again. The error is an [*Error] when the document is
// malformed or the decode was stopped by its context; differences are
// never errors.
func (r *Reader) Finish(st Status, root *Site) error {
	defer r.release()
	if st != Failed {
		r.Elem(st, root)
		r.end()
	}
	if r.err != nil {
		return r.err
	}
	r.report()
	return nil
}
