package fake

import "github.com/scmodel/scmgo/gen"

// service implements every operation of the interface on the world.
type service struct{ w *world }

var _ gen.StrictServerInterface = (*service)(nil)
