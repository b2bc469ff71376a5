package facade_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/scmodel/scmgo/facade"
)

// A server whose answer differs from the spec: the user's id as a string,
// and a field the spec does not name. The call succeeds; Drift says what
// differed, once per operation, path and kind.
func ExampleClient_Drift() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"42","username":"ada","email":"ada@example.com","firstName":"Ada","lastName":"","tenant":"north"}`)
	}))
	defer srv.Close()
	c, err := facade.New(srv.URL+"/api/v1", facade.WithAPIKey("sk-example"))
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	user, err := c.User.Current(ctx)
	if err != nil {
		log.Fatal(err)
	}
	tenant, _ := user.AdditionalProperties.Get("tenant")
	fmt.Println(user.Id, user.Username, string(tenant))
	for _, f := range c.Drift() {
		fmt.Println(f.Kind, f.Path)
	}
	// Output:
	// 42 ada "north"
	// probe-unknown-field ApiUserData.tenant
	// probe-type ApiUserData.id
}
