package clock_test

import (
	"context"
	"fmt"
	"time"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

// The package documentation's snippet: one virtual clock drives the fake's
// runs and the client's polling.
func Example_packageDoc() {
	clk := clock.NewVirtual(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	srv := fake.NewServer(fake.WithClock(clk))
	c, _ := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
	clk.Advance(time.Minute) // runs and polls move on, nobody sleeps
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	user, err := c.User.Current(ctx)
	fmt.Println(user.Username, err, clk.Now().Format(time.TimeOnly))
	// Output: demo <nil> 00:01:00
}
