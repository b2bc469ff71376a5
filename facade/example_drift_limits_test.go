package facade_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"

	"github.com/scmodel/scmgo/facade"
)

// A server newer than the spec, whose answer has 5 fields the spec does
// not name, to a client that keeps at most 3 findings: the call succeeds,
// every field is kept in the answer, Drift lists 3 differences, and
// DriftDropped counts the other 2.
func ExampleClient_DriftDropped() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var extra []string
		for i := range 5 {
			extra = append(extra, `"new`+strconv.Itoa(i)+`":true`)
		}
		io.WriteString(w, `{"id":42,"username":"ada","email":"ada@example.com","firstName":"Ada","lastName":"L",`+strings.Join(extra, ",")+`}`)
	}))
	defer srv.Close()
	c, err := facade.New(srv.URL+"/api/v1", facade.WithAPIKey("sk-example"), facade.WithLimits(facade.Limits{MaxDriftFindings: 3}))
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	user, err := c.User.Current(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(user.AdditionalProperties.Len(), "fields kept")
	fmt.Println(len(c.Drift()), "findings kept,", c.DriftDropped(), "counted")
	// Output:
	// 5 fields kept
	// 3 findings kept, 2 counted
}
