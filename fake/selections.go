package fake

import "github.com/scmodel/scmgo/ids"

// selectionStore holds the cells selected in variation tables, indexed by
// variation too: asking whether a variation has selected data, or deleting
// a variation's selections, looks only at that variation's tables, however
// many variations the world holds.
type selectionStore struct {
	cells       map[selectionKey]map[cellRef]bool
	byVariation map[variationRef]map[selectionKey]bool
}

// variationRef names a variation of an experiment: variation is "new" for
// one not yet created.
type variationRef struct {
	rcID      ids.RcID
	variation string
}

func newSelectionStore() selectionStore {
	return selectionStore{cells: map[selectionKey]map[cellRef]bool{}, byVariation: map[variationRef]map[selectionKey]bool{}}
}

func (key selectionKey) variationRef() variationRef { return variationRef{key.rcID, key.variation} }

// get returns the selection of a table, nil when it has none.
func (s *selectionStore) get(key selectionKey) map[cellRef]bool { return s.cells[key] }

// set stores the selection of a table.
func (s *selectionStore) set(key selectionKey, sel map[cellRef]bool) {
	s.cells[key] = sel
	ref := key.variationRef()
	if s.byVariation[ref] == nil {
		s.byVariation[ref] = map[selectionKey]bool{}
	}
	s.byVariation[ref][key] = true
}

// remove forgets the selection of a table.
func (s *selectionStore) remove(key selectionKey) {
	delete(s.cells, key)
	ref := key.variationRef()
	if delete(s.byVariation[ref], key); len(s.byVariation[ref]) == 0 {
		delete(s.byVariation, ref)
	}
}

// tables returns the keys of a variation's tables that have a selection.
func (s *selectionStore) tables(rcID ids.RcID, variation string) []selectionKey {
	keys := make([]selectionKey, 0, len(s.byVariation[variationRef{rcID, variation}]))
	for key := range s.byVariation[variationRef{rcID, variation}] {
		keys = append(keys, key)
	}
	return keys
}
