package properties_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scmodel/scmgo/internal/properties"
)

// A slab sets a first property as Set does, and a later one through Set;
// the models it serves share nothing.
func TestSlabSetsAsSetDoes(t *testing.T) {
	var s properties.Slab
	models := make([]properties.Properties, 200)
	for i := range models {
		s.Set(&models[i], "k", json.RawMessage(strconv.Itoa(i)))
		s.Set(&models[i], "k", json.RawMessage(strconv.Itoa(i+1)))
		s.Set(&models[i], "other", json.RawMessage("true"))
	}
	for i, p := range models {
		var want properties.Properties
		want.Set("k", json.RawMessage(strconv.Itoa(i+1)))
		want.Set("other", json.RawMessage("true"))
		assert.True(t, p.Equal(want), "model %d: %v", i, p)
	}
}

// 64 first properties cost one block; after Reset the next one takes a
// new block.
func TestSlabAllocatesABlockFor64(t *testing.T) {
	value := json.RawMessage("1")
	ps := make([]properties.Properties, 64)
	var s properties.Slab
	allocs := testing.AllocsPerRun(10, func() {
		s.Reset()
		for i := range ps {
			ps[i] = properties.Properties{}
			s.Set(&ps[i], "k", value)
		}
	})
	assert.Equal(t, 1.0, allocs, "64 first properties from one block")
}

// A model the caller holds on its stack stays there: Set keeps no pointer
// to it, so escape analysis lets it be (the decoders hold the first
// elements of an array on their stack).
func TestSlabLeavesAStackModelOnTheStack(t *testing.T) {
	var s properties.Slab
	value := json.RawMessage("1")
	s.Set(new(properties.Properties), "warm", value) // the block
	allocs := testing.AllocsPerRun(10, func() {
		var local properties.Properties
		s.Reset()
		s.Set(&local, "k", value)
	})
	assert.Equal(t, 1.0, allocs, "the block only, not the model")
}
