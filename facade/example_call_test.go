package facade_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/url"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

// Call reaches any operation by either of its names, with the client's
// authentication, retries and typed errors: the way for generic tools.
func ExampleClient_Call() {
	srv, c := setup()
	defer srv.Close()
	resp, err := c.Call(context.Background(), "get_scenarios", facade.RawRequest{Query: url.Values{"projectId": {"1"}}})
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var scenarios []gen.ApiScenarioData
	if err := json.NewDecoder(resp.Body).Decode(&scenarios); err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.StatusCode, scenarios[0].Id, *scenarios[0].Name)
	// Output: 200 101 Baseline
}
