package ids_test

import (
	"fmt"

	"github.com/scmodel/scmgo/ids"
)

// An id read from text (a flag, a file) takes its kind once, where it
// enters the program; from then on the compiler keeps it where it belongs.
func ExampleParse() {
	rc, err := ids.Parse[ids.RcID]("10303")
	if err != nil {
		panic(err)
	}
	fmt.Println(rc)
	_, err = ids.Parse[ids.ExperimentResultID]("10303x")
	fmt.Println(err)
	// Output:
	// 10303
	// experimentResultId "10303x" is not a whole number
}
