// Package clock is the time source that the client (package facade) and the
// fake server (package fake) share: one [Clock] interface, the real clock
// and a [Virtual] clock that moves only when told to.
//
// facade.Clock and fake.Clock are aliases of [Clock], so one virtual clock
// drives both sides of a test:
//
//	clk := clock.NewVirtual(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
//	srv := fake.NewServer(fake.WithClock(clk))
//	c, _ := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
//	clk.Advance(time.Minute) // runs and polls move on, nobody sleeps
//
// A clock whose waits advance it at once, for tests where the code under
// test is the only party that waits, is faketest.InstantClock.
package clock
