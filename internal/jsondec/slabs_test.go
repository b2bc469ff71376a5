package jsondec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A short array read into room sized by a long one of its type is copied
// out, and the room is not kept: a pooled reader holds at most maxSpare
// bytes of spare per type. Room sized by short arrays is kept for the
// next.
func TestSpareIsBounded(t *testing.T) {
	r := newReader([]byte("{}"), nil)
	defer r.release()
	k := NewSlabOf[[32]byte]()
	var s Scratch[[32]byte]
	small := make([][32]byte, 8)

	s.last.Store(10_000) // a long array of the type came before
	v := append(Grow(r, k, &s, small), [32]byte{1})
	require.GreaterOrEqual(t, cap(v), 10_000)
	out := Done(r, k, &s, v)
	assert.Len(t, out, 9)
	assert.Equal(t, byte(1), out[8][0])
	assert.Nil(t, holderOf(r, k).spare, "room for 10,000 elements is not kept")

	v = append(Grow(r, k, &s, small), [32]byte{2})
	assert.Less(t, cap(v), 100, "sized by the last array, of 9")
	out = Done(r, k, &s, v)
	assert.Equal(t, byte(2), out[8][0])
	assert.NotNil(t, holderOf(r, k).spare, "room sized by short arrays is kept")
	assert.Zero(t, holderOf(r, k).spare[:1][0], "the spare holds nothing of the document")
}
