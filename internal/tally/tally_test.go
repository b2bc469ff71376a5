package tally_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scmodel/scmgo/internal/tally"
)

// Count counts the items of the status, and only them.
func TestCount(t *testing.T) {
	type item struct{ status string }
	items := []item{{"done"}, {"failed"}, {"done"}, {"unknown"}}
	status := func(it item) string { return it.status }
	assert.Equal(t, 2, tally.Count(items, status, "done"))
	assert.Equal(t, 1, tally.Count(items, status, "failed"))
	assert.Zero(t, tally.Count(items, status, "cancelled"))
	assert.Zero(t, tally.Count(nil, status, "done"))
}
