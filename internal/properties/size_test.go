package properties

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// The first property of a Properties costs one block of this size (the
// docs/client.md and extra's package doc give it): the list's header, the index
// pointer and one member.
func TestFirstBlockSize(t *testing.T) {
	assert.Equal(t, uintptr(72), unsafe.Sizeof(withOne{}))
	assert.Equal(t, uintptr(8), unsafe.Sizeof(Properties{}), "a model pays one pointer while it has none")
}
