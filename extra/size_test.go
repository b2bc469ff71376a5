package extra

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// A model pays one pointer for its Properties while it has none (the
// first block's size is checked in internal/properties).
func TestPropertiesArePointerSized(t *testing.T) {
	assert.Equal(t, uintptr(8), unsafe.Sizeof(Properties{}), "a model pays one pointer while it has none")
}
