package main

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/scmodel/scmgo/fake"
)

// freePort returns a loopback port nobody listens on now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("%w: %v", errNoFreePort, err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// startDevServer starts `temporal server start-dev --headless` with its
// in-memory store on free loopback ports and returns it with its frontend
// address, once a client's health check passes.
func startDevServer(ctx context.Context, cli, dir string) (*proc, string, error) {
	var ports [3]int
	for i := range ports {
		p, err := freePort()
		if err != nil {
			return nil, "", err
		}
		ports[i] = p
	}
	addr := "127.0.0.1:" + strconv.Itoa(ports[0])
	args := []string{"server", "start-dev", "--headless", "--ip", "127.0.0.1", "--port", strconv.Itoa(ports[0]),
		"--http-port", strconv.Itoa(ports[1]), "--metrics-port", strconv.Itoa(ports[2]), "--log-level", "warn"}
	p, _, err := startProc(ctx, "temporal dev server", filepath.Join(dir, "temporal-server.log"), nil, "", cli, args...)
	if err != nil {
		return nil, "", err
	}
	if err := awaitTemporal(ctx, p, addr); err != nil {
		p.kill()
		return nil, "", err
	}
	return p, addr, nil
}

// awaitTemporal waits until the frontend at addr answers a health check.
func awaitTemporal(ctx context.Context, p *proc, addr string) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for {
		c, err := client.Dial(client.Options{HostPort: addr, Logger: quietLogger{}})
		if err == nil {
			_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
			c.Close()
			if err == nil {
				return nil
			}
		}
		if p != nil && p.exited() {
			return fmt.Errorf("the Temporal dev server exited (%v) before it served %s", p.err, addr)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the Temporal dev server did not answer at %s within 60s: %v", addr, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// fakeServer is the fake modelling server, served by this process on a
// loopback port, which the workers and scm batch reach.
type fakeServer struct {
	srv          *fake.Server
	baseURL, key string
}

// fakeSettings are the fake's settings, the same for both phases.
type fakeSettings struct {
	runDuration, importDuration, statusLag time.Duration
}

// newFake starts a fresh fake modelling server on real time.
func newFake(s fakeSettings) *fakeServer {
	srv := fake.NewServer(fake.WithLicense(), fake.WithRunDuration(s.runDuration), fake.WithImportDuration(s.importDuration),
		fake.WithStatusLag(s.statusLag))
	return &fakeServer{srv: srv, baseURL: srv.URL, key: srv.APIKey}
}

func (f *fakeServer) kill() { f.srv.Close() }

// env is the environment that points scm and the workers at the fake.
func (f *fakeServer) env() []string {
	return []string{"SCM_BASE_URL=" + f.baseURL, "SCM_API_KEY=" + f.key}
}

// calls are the fake's counts of the operations: requests that reached
// it (sent) and those it applied.
func (f *fakeServer) calls(ops ...string) map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, op := range ops {
		out[op] = map[string]int{"sent": f.srv.Calls(op), "applied": f.srv.Applied(op)}
	}
	return out
}
