package fake

import (
	"time"

	"github.com/scmodel/scmgo/clock"
)

// Clock is the time source of the server, [clock.Clock]: the same
// interface as facade.Clock, so one clock drives a server and its clients.
// Job and run states are computed from it whenever they are read, so a
// test that controls the clock controls every lifecycle.
type Clock = clock.Clock

// VirtualClock is a Clock that moves only when told to, [clock.Virtual].
// It is safe for concurrent use.
type VirtualClock = clock.Virtual

// NewVirtualClock returns a clock that reads start until it is advanced:
// [clock.NewVirtual].
func NewVirtualClock(start time.Time) *VirtualClock { return clock.NewVirtual(start) }
