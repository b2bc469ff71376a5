package doctor_test

import (
	"context"
	"fmt"
	"time"

	"github.com/scmodel/scmgo/doctor"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

// Run checks a client's server in one call; the report has a line per
// check, and says whether one failed.
func ExampleRun() {
	srv, clk := faketest.StartInstantServer()
	defer srv.Close()
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
	if err != nil {
		panic(err)
	}
	rep := doctor.Run(context.Background(), c, doctor.Options{})
	for _, check := range rep.Checks {
		fmt.Printf("%-4s  %s\n", check.Status, check.Name)
	}
	key, _ := rep.Check(doctor.CheckKey)
	fmt.Println(key.Seen)
	fmt.Println("failed:", rep.Failed())
	// Output:
	// ok    base-url
	// ok    api-key
	// ok    proxy
	// ok    dns
	// ok    connect
	// ok    tls
	// ok    key
	// warn  license
	// warn  spec
	// ok    probe
	// accepted: the key of demo (user id 1)
	// failed: false
}

// With Options.Run the doctor starts one run and measures the status lag
// run identity depends on, and recommends the settings for it. The lag
// shows only on a configuration that ran before. The polls' pause grows
// with the run's age (a twentieth of it), so a run of 40 s is seen to end
// within 2 s of its end.
func ExampleRun_measure() {
	srv, clk := faketest.StartInstantServer(fake.WithStatusLag(3*time.Second), fake.WithRunDuration(40*time.Second))
	defer srv.Close()
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	if _, err := c.RunAndWait(ctx, 10303, nil); err != nil { // the run before, whose end the status shows
		panic(err)
	}
	rep := doctor.Run(ctx, c, doctor.Options{Run: 10303, Clock: clk})
	m := rep.Run
	fmt.Println("status lag:", m.StatusLag, "listed after:", m.ListedAfter, "length:", m.Length)
	fmt.Println("WaitOptions.StaleWindow:", m.StaleWindow, "WaitOptions.MaxRunLength:", m.MaxRunLength)
	// Output:
	// status lag: 3s listed after: 41.5s length: 41.5s
	// WaitOptions.StaleWindow: 7s WaitOptions.MaxRunLength: 2m5s
}
