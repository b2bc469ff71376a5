package facade

import (
	"encoding/json"
	"fmt"
	"hash/maphash"

	"github.com/scmodel/scmgo/gen"
)

// recentPages is how many pages a paging remembers to find a cycle.
const recentPages = 64

// PageCycle is where a paging found its server not advancing: for a later
// skip, a page that starts or ends with the item an earlier page started
// or ended with. A server that ignores skip, or cycles through a few
// pages, would otherwise be paged forever. The pages before it were
// yielded; the page at Skip was not. It is the Cycle of a
// [*MalformedError].
type PageCycle struct {
	Skip    int64  // the skip of the page that repeats
	Earlier int64  // the skip of the earlier page it repeats
	Edge    string // "first" or "last": the item found again
}

// pageDigest is what a paging remembers of one page: the hashes of its
// first and last items, whatever the items' size.
type pageDigest struct {
	skip        int64
	first, last uint64
}

// pageDigests remembers the recentPages most recent pages of one paging.
type pageDigests struct {
	op    gen.OperationID
	seed  maphash.Seed
	ring  [recentPages]pageDigest
	count int
}

func newPageDigests(op gen.OperationID) *pageDigests {
	return &pageDigests{op: op, seed: maphash.MakeSeed()}
}

// add remembers the page at skip with its first and last items, or returns
// the cycle it closes.
func (d *pageDigests) add(skip int32, first, last any) error {
	p := pageDigest{skip: int64(skip), first: d.hash(first), last: d.hash(last)}
	for _, old := range d.ring[:min(d.count, recentPages)] {
		edge := ""
		switch {
		case old.first == p.first:
			edge = "first"
		case old.last == p.last:
			edge = "last"
		default:
			continue
		}
		return &MalformedError{Operation: string(d.op), Cycle: &PageCycle{Skip: p.skip, Earlier: old.skip, Edge: edge}}
	}
	d.ring[d.count%recentPages] = p
	d.count++
	return nil
}

// hash digests an item by its JSON encoding; one that does not encode is
// digested by its Go syntax representation.
func (d *pageDigests) hash(item any) uint64 {
	b, err := json.Marshal(item)
	if err != nil {
		b = fmt.Appendf(nil, "%#v", item)
	}
	return maphash.Bytes(d.seed, b)
}
