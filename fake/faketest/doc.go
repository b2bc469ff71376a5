// Package faketest starts the fake server (package fake) for tests and
// examples, in the ways the SDK's own tests do, so that no test package
// copies them.
//
// Most tests want a fake on an [InstantClock]: a virtual clock whose every
// wait advances it at once. When the code under test is the only party
// that waits (a client polling a run, retrying after a 429, the fake's
// synchronous run), every wait then ends immediately, on virtual time, and
// the clock says how much time the waits took:
//
//	srv, clk := faketest.NewInstantServer(t, fake.WithRunDuration(time.Minute))
//	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
//	...
//	run, err := c.RunAndWait(ctx, 10101, nil) // returns at once; clk.Now() is a minute on
//
// A test that must interleave with the code under test (advance the clock
// only once a request waits) uses clock.Virtual and its BlockUntilWaiters
// instead. [NewServer] starts a fake on the real clock.
//
// The servers are licensed ([fake.WithLicense]), as the real server's users
// who run experiments are; options given after that are applied on top.
package faketest
