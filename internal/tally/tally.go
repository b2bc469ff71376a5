package tally

// Count returns how many of items have the status want, each item's
// status as status reads it.
func Count[T any, S comparable](items []T, status func(T) S, want S) int {
	n := 0
	for _, it := range items {
		if status(it) == want {
			n++
		}
	}
	return n
}
