package xlsxpage

import "fmt"

// Budget counts the rows and cells a reader yields of one result, within
// the limits ResultRows and ResultCells. A nil *Budget counts nothing.
type Budget struct {
	rows, cells       int64
	maxRows, maxCells int64
}

// NewBudget is the budget of one result.
func NewBudget(maxRows, maxCells int64) *Budget {
	return &Budget{maxRows: maxRows, maxCells: maxCells}
}

// Cell counts one cell more, of a row counted with [Budget.Row].
func (b *Budget) Cell() error {
	if b == nil {
		return nil
	}
	if b.cells++; b.cells > b.maxCells {
		return &LimitExceeded{Name: "ResultCells", Max: b.maxCells, What: fmt.Sprintf("the result, of %d cells or more,", b.cells)}
	}
	return nil
}

// Row counts one row of cells cells more; past a limit it is an error.
func (b *Budget) Row(cells int) error {
	if b == nil {
		return nil
	}
	b.rows++
	b.cells += int64(cells)
	switch {
	case b.rows > b.maxRows:
		return &LimitExceeded{Name: "ResultRows", Max: b.maxRows, What: fmt.Sprintf("the result, of %d rows or more,", b.rows)}
	case b.cells > b.maxCells:
		return &LimitExceeded{Name: "ResultCells", Max: b.maxCells, What: fmt.Sprintf("the result, of %d cells or more,", b.cells)}
	}
	return nil
}
