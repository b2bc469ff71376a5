package main

import (
	"archive/zip"
	"bytes"
	"context"
	"flag"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
)

// TestServe serves the fake on a loopback port, calls it with the printed
// base URL and key, and shuts it down.
func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	printed := make(chan struct{})
	done := make(chan error, 1)
	w := &notifyWriter{buf: &out, once: printed}
	go func() { done <- fake.DefaultDevServer().Serve(ctx, ln, w) }()
	<-printed
	lines := strings.Split(out.String(), "\n")
	base := strings.TrimSpace(strings.TrimPrefix(lines[0], "base URL:"))
	key := strings.TrimSpace(strings.TrimPrefix(lines[1], "API key:"))
	assert.True(t, strings.HasSuffix(base, "/api/v1"))
	req, err := http.NewRequest(http.MethodGet, base+"/open/user", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	cancel()
	assert.NoError(t, <-done)
}

type notifyWriter struct {
	buf  *bytes.Buffer
	once chan struct{}
}

func (n *notifyWriter) Write(p []byte) (int, error) {
	k, err := n.buf.Write(p)
	close(n.once)
	return k, err
}

func TestCommandLine(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		code int
		want string
	}{
		"help":     {[]string{"-h"}, 0, "-unlicensed"},
		"bad flag": {[]string{"-nope"}, 2, "flag provided but not defined: -nope"},
		"bad addr": {[]string{"-addr", "256.0.0.1:1"}, 1, "scm-fake: listen tcp"},
	} {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			assert.Equal(t, tc.code, serve(context.Background(), tc.args, &out, &errOut))
			assert.Contains(t, errOut.String(), tc.want)
		})
	}
}

// The dev server starts users licensed, so runs start at once; -unlicensed
// serves the 403 of a user without a license.
func TestLicensedByDefault(t *testing.T) {
	for flags, want := range map[string]int{"": http.StatusOK, "-unlicensed": http.StatusForbidden} {
		srv := fake.DefaultDevServer()
		fs := flag.NewFlagSet("scm-fake", flag.ContinueOnError)
		srv.RegisterFlags(fs)
		require.NoError(t, fs.Parse(strings.Fields(flags)))
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ctx, ln, io.Discard) }()
		req, err := http.NewRequest(http.MethodGet, "http://"+ln.Addr().String()+fake.BasePath+"/open/experiments/run?rcId=10101", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", srv.Key)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, want, resp.StatusCode, "flags %q", flags)
		cancel()
		require.NoError(t, <-done)
	}
}

// The upload and workbook limits come from flags.
func TestLimitFlags(t *testing.T) {
	srv := fake.DefaultDevServer()
	fs := flag.NewFlagSet("scm-fake", flag.ContinueOnError)
	srv.RegisterFlags(fs)
	require.NoError(t, fs.Parse([]string{"-max-upload", "4096", "-max-workbook-inflated", "100"}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	serving, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(serving, ln, io.Discard) }()
	base := "http://" + ln.Addr().String() + fake.BasePath
	for name, tc := range map[string]struct {
		file   []byte
		status int
		want   string
	}{
		"over the upload limit": {bytes.Repeat([]byte("x"), 5000), http.StatusRequestEntityTooLarge, "larger than the server's limit of 4096 bytes"},
		"over the inflated limit": {workbookOf(t, strings.Repeat("<row/>", 100)), http.StatusBadRequest,
			"the parts read inflate to more than 100 bytes: over the limit WorkbookLimits.TotalBytes"},
	} {
		t.Run(name, func(t *testing.T) {
			status, body := upload(ctx, t, base, srv.Key, tc.file)
			assert.Equal(t, tc.status, status)
			assert.Contains(t, body, tc.want)
		})
	}
	stop()
	require.NoError(t, <-done)
}

// upload sends file to importExcel and returns the status and body.
func upload(ctx context.Context, t *testing.T, base, key string, file []byte) (int, string) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	require.NoError(t, mw.WriteField("projectId", "1"))
	require.NoError(t, mw.WriteField("newScenarioName", "x"))
	fw, err := mw.CreateFormFile("file", "x.xlsx")
	require.NoError(t, err)
	_, err = fw.Write(file)
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/open/import/import-excel", &body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// workbookOf is a workbook of one sheet whose worksheet part holds rows.
func workbookOf(t *testing.T, rows string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range map[string]string{
		"xl/workbook.xml":            `<workbook xmlns:r="urn:r"><sheets><sheet name="A" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Target="worksheets/a.xml"/></Relationships>`,
		"xl/worksheets/a.xml":        `<worksheet><sheetData>` + rows + `</sheetData></worksheet>`,
	} {
		w, err := zw.Create(name)
		require.NoError(t, err)
		_, err = io.WriteString(w, content)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}
