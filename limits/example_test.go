package limits_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/limits"
)

// A server sends more than a limit allows: the error, whichever package
// refused, is a *limits.Error naming the limit to raise.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"name":"a user whose answer is longer than the client allows"}`)
	}))
	defer srv.Close()
	c, err := facade.New(srv.URL, facade.WithAPIKey("k"), facade.WithLimits(facade.Limits{MaxBodyBytes: 16}))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	_, err = c.User.Current(ctx)
	var le *limits.Error
	if errors.As(err, &le) && !le.Fixed {
		fmt.Printf("%s refused in %s: raise %s's %s above %d %s\n", le.Package, le.Operation, le.Package, le.Limit, le.Max, le.Unit)
	}
	fmt.Println(errors.Is(err, limits.ErrLimit))
	fmt.Println(le)
	// Output:
	// facade refused in getCurrentUser: raise facade's Limits.MaxBodyBytes above 16 bytes
	// true
	// facade: getCurrentUser: the answer's body exceeds facade's Limits.MaxBodyBytes (16 bytes): raise it if the server is trusted to send more
}
