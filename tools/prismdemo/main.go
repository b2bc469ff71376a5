// Command prismdemo runs `scm demo` against the fake server through
// Prism's validating proxy (an independent implementation of the spec) and
// fails on any violation Prism reports, of a request or of an answer.
//
// Prism corrupts binary bodies (stoplightio/prism#2349, #1321): a workbook
// uploaded or downloaded through it arrives as a broken zip. So the demo's
// multipart uploads (importExcel) go around Prism, straight to the fake,
// and its workbook downloads go through Prism, which checks their status
// and headers, and then once more around it for the bytes (they change
// nothing, so sending them twice is safe). Every other request and answer
// passes through Prism alone. `make prism-demo` runs it (and `make
// ci`), with the Prism it installs under .tools/.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

func main() {
	prism := flag.String("prism", ".tools/prism/node_modules/.bin/prism", "the Prism CLI")
	scm := flag.String("scm", "bin/scm", "the scm CLI")
	specPath := flag.String("spec", "api/openapi.yaml", "the spec Prism validates against")
	logPath := flag.String("log", "", "write Prism's output to this file too")
	timeout := flag.Duration("timeout", 3*time.Minute, "bound on the whole run")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	r, err := run(ctx, config{prism: *prism, scm: *scm, spec: *specPath})
	if *logPath != "" && r != nil {
		_ = os.WriteFile(*logPath, r.prismLog, 0o644)
	}
	if err != nil {
		log.Fatalf("prismdemo: %v", err)
	}
	fmt.Printf("prismdemo: the demo through Prism: %d requests validated, %d multipart uploads around it (stoplightio/prism#2349), 0 violations\n",
		r.validated.Load(), r.bypassed.Load())
}

type config struct {
	prism, scm, spec string
}

// result is what a run saw.
type result struct {
	validated, bypassed atomic.Int64 // requests through Prism, and around it
	prismLog            []byte
}

// run starts the fake, Prism in front of it and the splitting front, runs
// the demo through them, and fails on a failed demo or any violation.
func run(ctx context.Context, cfg config) (*result, error) {
	srv := fake.NewServer(fake.WithRunDuration(time.Second), fake.WithImportDuration(time.Second))
	defer srv.Close()
	r := &result{}
	prismURL, out, stop, err := startPrism(ctx, cfg, srv.URL)
	if err != nil {
		return r, err
	}
	front, err := startFront(prismURL, srv.URL, r)
	if err != nil {
		stop()
		return r, err
	}
	defer front.Close()
	demoErr := runDemo(ctx, cfg.scm, "http://"+front.Addr().String()+fake.BasePath, srv.APIKey)
	stop()
	r.prismLog = out.Bytes()
	violations := violationLines(r.prismLog)
	switch {
	case demoErr != nil:
		return r, fmt.Errorf("the demo through Prism failed: %w; Prism's violations:\n%s", demoErr, strings.Join(violations, "\n"))
	case len(violations) > 0:
		return r, fmt.Errorf("%d violations of the spec, as Prism reported them:\n%s", len(violations), strings.Join(violations, "\n"))
	case r.validated.Load() == 0:
		return r, errors.New("no request went through Prism")
	}
	return r, nil
}

// violationLines are the lines of Prism's output that report a violation.
func violationLines(out []byte) []string {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.Contains(strings.ToLower(sc.Text()), "violation") {
			lines = append(lines, sc.Text())
		}
	}
	return lines
}

// syncBuffer is a buffer Prism's output is copied into while it runs.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// startPrism starts Prism's proxy to upstream with --errors (a violation
// is an error answer, so the demo fails on it too) and waits until it
// listens. stop ends it.
func startPrism(ctx context.Context, cfg config, upstream string) (string, *syncBuffer, func(), error) {
	port, err := freePort()
	if err != nil {
		return "", nil, nil, err
	}
	out := &syncBuffer{}
	cmd := exec.CommandContext(ctx, cfg.prism, "proxy", cfg.spec, upstream, "--errors", "--host", "127.0.0.1", "--port", port)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return "", nil, nil, fmt.Errorf("starting Prism (make prism installs it): %w", err)
	}
	stop := func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	addr := "127.0.0.1:" + port
	if err := waitListening(ctx, addr, 60*time.Second); err != nil {
		stop()
		return "", nil, nil, fmt.Errorf("no Prism listening on %s: %w\n%s", addr, err, out.Bytes())
	}
	return "http://" + addr, out, stop, nil
}

// freePort is a port nothing listens on now.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	return port, err
}

// waitListening waits until addr accepts a connection, for at most limit.
func waitListening(ctx context.Context, addr string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			return conn.Close()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// startFront serves the demo's base URL. Every request goes through Prism
// (whose paths are the spec's, without the base path), except where Prism
// would corrupt a binary body (stoplightio/prism#2349, #1321): a multipart
// upload goes to the fake itself, and a workbook download that changes
// nothing goes through Prism (which validates its status and headers)
// and then once more straight to the fake, whose bytes the demo gets.
func startFront(prismURL, fakeURL string, r *result) (net.Listener, error) {
	toPrism, err := url.Parse(prismURL)
	if err != nil {
		return nil, err
	}
	toFake, err := url.Parse(strings.TrimSuffix(fakeURL, fake.BasePath))
	if err != nil {
		return nil, err
	}
	viaPrism, direct := httputil.NewSingleHostReverseProxy(toPrism), httputil.NewSingleHostReverseProxy(toFake)
	binary := binaryAnswers()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		path := strings.TrimPrefix(req.URL.Path, fake.BasePath)
		if strings.HasPrefix(req.Header.Get("Content-Type"), "multipart/form-data") {
			r.bypassed.Add(1)
			direct.ServeHTTP(w, req)
			return
		}
		r.validated.Add(1)
		if binary[req.Method+" "+path] {
			body, err := io.ReadAll(req.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			probe := httptest.NewRecorder()
			first := prismRequest(req, path)
			first.Body, req.Body = io.NopCloser(bytes.NewReader(body)), io.NopCloser(bytes.NewReader(body))
			viaPrism.ServeHTTP(probe, first)
			if probe.Code == http.StatusOK {
				direct.ServeHTTP(w, req)
				return
			}
			copyAnswer(w, probe)
			return
		}
		viaPrism.ServeHTTP(w, prismRequest(req, path))
	})
	go func() { _ = http.Serve(l, handler) }()
	return l, nil
}

// prismRequest is req for Prism: the spec's path, without the base path.
func prismRequest(req *http.Request, path string) *http.Request {
	out := req.Clone(req.Context())
	out.URL.Path, out.URL.RawPath = path, ""
	return out
}

// copyAnswer writes a recorded answer.
func copyAnswer(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// binaryAnswers are the operations ("METHOD /path") whose answer is a
// binary file and which change nothing, so that sending them twice is safe.
func binaryAnswers() map[string]bool {
	out := map[string]bool{}
	for _, op := range gen.Operations() {
		if op.Response.Binary && !op.ChangesState {
			out[op.Method+" "+op.Path] = true
		}
	}
	return out
}

// runDemo runs `scm demo` against base in a directory of its own (the demo
// writes its dashboard workbook there).
func runDemo(ctx context.Context, scm, base, key string) error {
	dir, err := os.MkdirTemp("", "prismdemo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	abs, err := exec.LookPath(scm)
	if err != nil {
		return err
	}
	if !strings.HasPrefix(abs, "/") {
		wd, _ := os.Getwd()
		abs = wd + "/" + abs
	}
	cmd := exec.CommandContext(ctx, abs, "demo", "--base-url", base, "--api-key", key, "--yes")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}
