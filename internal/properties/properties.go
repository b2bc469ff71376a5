package properties

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"iter"
	"maps"
	"slices"
	"strings"
)

// Properties are named raw JSON values, in the order they were first set.
// Names are unique: setting a name already present replaces its value in
// place. The zero value has none.
type Properties struct{ p *props }

// props is what Properties point to once they hold a property.
type props struct {
	list []member
	// index finds a name's position in list, kept while the list is
	// longer than a linear search is fast: a hostile answer may have a
	// hundred thousand distinct names in one object.
	index *nameIndex
}

type member struct {
	name  string
	value json.RawMessage
}

// indexFrom is the length from which names are found through the index.
const indexFrom = 8

// withOne is the first allocation of props: the list's first member in the
// same block, so that a model with one property costs one allocation.
type withOne struct {
	props
	one [1]member
}

// hold makes b the first property of e, which has none.
func (b *withOne) hold(e *Properties, name string, value json.RawMessage) {
	b.one[0] = member{name, value}
	b.list = b.one[:]
	e.p = &b.props
}

// Of returns Properties holding the values of m, in the order of their
// names, or none when m is empty.
func Of(m map[string]json.RawMessage) Properties {
	var e Properties
	for _, name := range slices.Sorted(maps.Keys(m)) {
		e.Set(name, m[name])
	}
	return e
}

// Len returns how many properties there are.
func (e Properties) Len() int {
	if e.p == nil {
		return 0
	}
	return len(e.p.list)
}

// Get returns the value of the property name, and whether there is one.
func (e Properties) Get(name string) (json.RawMessage, bool) {
	if i := e.find(name); i >= 0 {
		return e.p.list[i].value, true
	}
	return nil, false
}

// Has reports whether there is a property name.
func (e Properties) Has(name string) bool { return e.find(name) >= 0 }

func (e Properties) find(name string) int {
	if e.p == nil {
		return -1
	}
	if e.p.index != nil {
		return e.p.index.find(e.p.list, name)
	}
	for i := range e.p.list {
		if e.p.list[i].name == name {
			return i
		}
	}
	return -1
}

// Set sets the property name to value: in its place when there is one
// already, else after the others. The value is kept as given, not copied.
func (e *Properties) Set(name string, value json.RawMessage) {
	if e.p == nil {
		new(withOne).hold(e, name, value)
		return
	}
	if i := e.find(name); i >= 0 {
		e.p.list[i].value = value
		return
	}
	if len(e.p.list) == cap(e.p.list) {
		// double, where append grows a long list by a quarter: the lists
		// of a hostile object of many names would copy five times their size
		e.p.list = slices.Grow(e.p.list, len(e.p.list))
	}
	e.p.list = append(e.p.list, member{name, value})
	switch n := len(e.p.list); {
	case e.p.index != nil && 2*n <= len(e.p.index.slots):
		e.p.index.add(e.p.list, n-1)
	case n > indexFrom:
		e.p.reindex()
	}
}

func (p *props) reindex() {
	size := 32
	for size < 4*len(p.list) {
		size *= 2
	}
	x := &nameIndex{slots: make([]int32, size)}
	for i := range p.list {
		x.add(p.list, i)
	}
	p.index = x
}

// nameIndex is an open-addressing table of the positions in a list of
// members, by the hash of their names: 4 bytes a slot, at most half of
// them used, where a map of the names would take about 30 bytes a name.
type nameIndex struct {
	slots []int32 // a position in the list plus one; 0 is empty
}

// seed is the process's seed of the indexes' hashes: random, so that a
// server cannot choose names that collide, and the same for every index,
// so that two Properties set alike are alike to reflect.DeepEqual.
var seed = maphash.MakeSeed()

func (x *nameIndex) find(list []member, name string) int {
	mask := len(x.slots) - 1
	for i := int(maphash.String(seed, name)) & mask; ; i = (i + 1) & mask {
		s := x.slots[i]
		if s == 0 {
			return -1
		}
		if list[s-1].name == name {
			return int(s - 1)
		}
	}
}

// add indexes list[pos], whose name is not indexed yet.
func (x *nameIndex) add(list []member, pos int) {
	mask := len(x.slots) - 1
	i := int(maphash.String(seed, list[pos].name)) & mask
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = int32(pos + 1)
}

// Delete removes the property name, when there is one.
func (e *Properties) Delete(name string) {
	i := e.find(name)
	if i < 0 {
		return
	}
	e.p.list = slices.Delete(e.p.list, i, i+1)
	e.p.index = nil
	if len(e.p.list) > indexFrom {
		e.p.reindex()
	}
}

// All yields the properties' names and values, in the order they were
// first set. Properties set or deleted while it runs may or may not be
// seen, as with a map.
func (e Properties) All() iter.Seq2[string, json.RawMessage] {
	return func(yield func(string, json.RawMessage) bool) {
		if e.p == nil {
			return
		}
		for i := 0; i < len(e.p.list); i++ {
			if !yield(e.p.list[i].name, e.p.list[i].value) {
				return
			}
		}
	}
}

// Names returns the properties' names, in the order they were first set.
func (e Properties) Names() []string {
	names := make([]string, 0, e.Len())
	for name := range e.All() {
		names = append(names, name)
	}
	return names
}

// Map returns the properties as a new map, nil when there are none.
func (e Properties) Map() map[string]json.RawMessage {
	if e.Len() == 0 {
		return nil
	}
	m := make(map[string]json.RawMessage, e.Len())
	for name, v := range e.All() {
		m[name] = v
	}
	return m
}

// Clone returns a copy that shares no properties with e: setting or
// deleting a property of one leaves the other as it was. The values'
// bytes are shared; they are not changed by either.
func (e Properties) Clone() Properties {
	var c Properties
	for name, v := range e.All() {
		c.Set(name, v)
	}
	return c
}

// Equal reports whether e and o have the same names, in the same order,
// with byte-identical values.
func (e Properties) Equal(o Properties) bool {
	if e.Len() != o.Len() {
		return false
	}
	for i := range e.Len() {
		a, b := e.p.list[i], o.p.list[i]
		if a.name != b.name || string(a.value) != string(b.value) {
			return false
		}
	}
	return true
}

// String describes the properties for a log line or a test failure:
// {"name": value, ...}, in their order.
func (e Properties) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for name, v := range e.All() {
		if b.Len() > 1 {
			b.WriteString(", ")
		}
		q, _ := json.Marshal(name)
		b.Write(q)
		b.WriteString(": ")
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.String()
}

// A Slab gives many Properties their first property from blocks allocated
// slabSize at a time: for a decoder that fills the models of a whole page,
// one allocation per slabSize models that have a property, instead of one
// each. Properties whose first property came from a slab keep its block
// alive, that is up to slabSize-1 other models' first properties. The
// zero Slab is ready to use; a Slab is not safe for concurrent use. A
// Slab's Set keeps no pointer to the Properties it sets: a model a decoder
// holds on its stack stays there.
type Slab struct{ free []withOne }

const slabSize = 64

// Set sets the property name of *e to value, as e.Set does.
func (s *Slab) Set(e *Properties, name string, value json.RawMessage) {
	if e.p != nil {
		e.Set(name, value)
		return
	}
	if len(s.free) == 0 {
		s.free = make([]withOne, slabSize)
	}
	s.free[0].hold(e, name, value)
	s.free = s.free[1:]
}

// Reset lets go of the rest of the current block: what is set next shares
// no block with what was set before.
func (s *Slab) Reset() { s.free = nil }

// MarshalJSON writes the properties as a JSON object, in their order; a
// value that is empty is written as null.
func (e Properties) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for name, v := range e.All() {
		if len(b) > 1 {
			b = append(b, ',')
		}
		q, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		b = append(append(b, q...), ':')
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		if !json.Valid(v) {
			return nil, fmt.Errorf("extra: the value of %s is not JSON", q)
		}
		b = append(b, v...)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON sets the properties of a JSON object, in its order,
// replacing what e held; null leaves e as it was.
func (e *Properties) UnmarshalJSON(b []byte) error {
	d := json.NewDecoder(bytes.NewReader(b))
	t, err := d.Token()
	if err != nil {
		return err
	}
	if t == nil {
		return nil
	}
	if t != json.Delim('{') {
		return fmt.Errorf("extra: Properties are read from a JSON object, not %s", b[:min(len(b), 20)])
	}
	var read Properties
	for d.More() {
		name, err := d.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return err
		}
		read.Set(name.(string), v)
	}
	if _, err := d.Token(); err != nil {
		return err
	}
	*e = read
	return nil
}
