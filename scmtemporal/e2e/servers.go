package main

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
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

// fakeServer is a running scm-fake: its base URL and key as printed.
type fakeServer struct {
	*proc
	baseURL, key string
	log          string // its request log: a line per request
}

// fakeSettings are the fake's flags, the same for both phases.
type fakeSettings struct {
	runDuration, importDuration time.Duration
}

func (s fakeSettings) args() []string {
	return []string{"-addr", "127.0.0.1:0", "-log", "-run-duration", s.runDuration.String(), "-import-duration", s.importDuration.String()}
}

// startFake starts a fresh fake modelling server with its request log in
// dir/NAME.log.
func startFake(ctx context.Context, bin, dir, name string, s fakeSettings) (*fakeServer, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	log := filepath.Join(dir, name+".log")
	p, lines, err := startProc(ctx, name, log, nil, "API docs:", bin, s.args()...)
	if err != nil {
		return nil, err
	}
	f := &fakeServer{proc: p, log: log}
	for _, l := range lines {
		k, v, _ := strings.Cut(l, ":")
		switch v = strings.TrimSpace(v); k {
		case "base URL":
			f.baseURL = v
		case "API key":
			f.key = v
		}
	}
	if f.baseURL == "" || f.key == "" {
		p.kill()
		return nil, fmt.Errorf("%s printed no base URL or key: %q", name, lines)
	}
	return f, nil
}

// env is the environment that points scm and the workers at the fake.
func (f *fakeServer) env() []string {
	return []string{"SCM_BASE_URL=" + f.baseURL, "SCM_API_KEY=" + f.key}
}
