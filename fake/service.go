package fake

import "github.com/scmodel/scmgo/fake/internal/genserver"

// service implements every operation of the interface on the world. The
// generated fallback it embeds answers an operation it has no method for
// (one the spec gained since) with a 501 naming it: see notImplemented.
type service struct {
	genserver.StrictUnimplemented
	w *world
}

var _ genserver.StrictServerInterface = (*service)(nil)
