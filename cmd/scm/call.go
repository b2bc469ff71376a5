package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

func (a *app) callCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "call OPERATION [--PARAM VALUE ...] [--body @FILE.json|-] [-o FILE]",
		Short: "Call any operation by its camelCase or snake_case name",
		Long: `Call any operation of the remote interface by its camelCase or snake_case
name; 'scm ops' lists them. Parameters are given as --name value and are
checked against the spec before anything is sent: an unknown parameter, a
missing required one or a bad value exits with 2. Lists repeat the flag.
File fields of the import operations take @path.

A JSON body is given with --body @file.json, --body - (standard input) or
inline JSON. JSON responses are printed (indented on a terminal); workbooks
need -o FILE.`,
		Example: `  scm call getScenarios --projectId 3
  scm call get_scenarios --projectId 3
  scm call importExcel --projectId 3 --newScenarioName Base --file @network.xlsx
  scm call updateExperimentRunConfiguration --rcId 7 --body @rc.json
  scm call exportDashboardPage --rcId 7 --pageId 1 -o page.xlsx`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
				return cmd.Help()
			}
			c, err := a.parseCall(args)
			if err != nil {
				return err
			}
			a.fillFromEnv()
			return a.send(cmd.Context(), c)
		},
	}
}

// send performs a checked call and writes its response.
func (a *app) send(ctx context.Context, c callArgs) error {
	req, err := a.newCallRequest(ctx, c)
	if err != nil {
		return err
	}
	start := time.Now()
	a.logf("→ %s %s", req.Method, req.URL.RequestURI())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", c.op.ID, redactURL(err))
	}
	defer resp.Body.Close()
	a.logf("← %s %s (%s)", c.op.ID, resp.Status, time.Since(start).Round(time.Millisecond))
	if resp.StatusCode >= 400 {
		return responseError(c.op.ID, resp)
	}
	return a.writeResponse(c, resp.Body)
}

func (a *app) newCallRequest(ctx context.Context, c callArgs) (*http.Request, error) {
	base, err := a.base()
	if err != nil {
		return nil, err
	}
	u := strings.TrimSuffix(base, "/") + c.op.Path
	query := url.Values{}
	for _, p := range c.op.Params {
		query[p.Name] = c.values[p.Name]
	}
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	body, contentType, err := a.callBody(c)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, c.op.Method, u, body)
	if err != nil {
		return nil, usagef("call %s: %v", c.op.ID, err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	a.authorize(req)
	return req, nil
}

// callBody returns the request body: the JSON of --body, or a multipart
// form streamed from the given fields and files.
func (a *app) callBody(c callArgs) (io.Reader, string, error) {
	if c.op.Body == nil {
		return nil, "", nil
	}
	if c.op.Body.MediaType == "multipart/form-data" {
		return streamForm(c)
	}
	if c.body == "" {
		return nil, "", nil
	}
	raw, err := a.readBody(c.body)
	if err != nil {
		return nil, "", usagef("call %s: --body: %v", c.op.ID, err)
	}
	if !json.Valid(raw) {
		return nil, "", usagef("call %s: --body is not valid JSON", c.op.ID)
	}
	return bytes.NewReader(raw), "application/json", nil
}

func (a *app) readBody(arg string) ([]byte, error) {
	switch {
	case arg == "-":
		return io.ReadAll(a.stdin)
	case strings.HasPrefix(arg, "@"):
		return os.ReadFile(arg[1:])
	default:
		return []byte(arg), nil
	}
}

// streamForm writes the multipart form through a pipe, so a large file is
// never held in memory. Files are opened first so a bad path is a usage
// error before anything is sent.
func streamForm(c callArgs) (io.Reader, string, error) {
	files := map[string]*os.File{}
	for _, f := range c.op.Body.Fields {
		if f.Format != "binary" || len(c.values[f.Name]) == 0 {
			continue
		}
		file, err := os.Open(c.values[f.Name][0][1:])
		if err != nil {
			closeAll(files)
			return nil, "", usagef("call %s: --%s: %v", c.op.ID, f.Name, err)
		}
		files[f.Name] = file
	}
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		defer closeAll(files)
		pw.CloseWithError(writeForm(mw, c, files))
	}()
	return pr, mw.FormDataContentType(), nil
}

func writeForm(mw *multipart.Writer, c callArgs, files map[string]*os.File) error {
	for _, f := range c.op.Body.Fields {
		if file, ok := files[f.Name]; ok {
			w, err := mw.CreateFormFile(f.Name, filepath.Base(file.Name()))
			if err != nil {
				return err
			}
			if _, err := io.Copy(w, file); err != nil {
				return err
			}
			continue
		}
		for _, v := range c.values[f.Name] {
			if err := mw.WriteField(f.Name, v); err != nil {
				return err
			}
		}
	}
	return mw.Close()
}

func closeAll(files map[string]*os.File) {
	for _, f := range files {
		f.Close()
	}
}

func (a *app) writeResponse(c callArgs, body io.Reader) error {
	if c.output != "" {
		return writeFile(c.output, body)
	}
	raw, err := io.ReadAll(body)
	if err != nil {
		return fmt.Errorf("%s: reading the response: %w", c.op.ID, err)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	if isTerminal(a.stdout) {
		var out bytes.Buffer
		if json.Indent(&out, raw, "", "  ") == nil {
			raw = out.Bytes()
		}
	}
	_, err = fmt.Fprintln(a.stdout, strings.TrimSpace(string(raw)))
	return err
}

// writeFile streams r into path, removing a partial file on failure.
func writeFile(path string, r io.Reader) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// responseError turns an error response into a message naming the
// operation and the status, with the server's message when it sent one.
func responseError(opID string, resp *http.Response) error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var body struct {
		Message string `json:"message"`
	}
	msg := strings.TrimSpace(string(raw))
	if json.Unmarshal(raw, &body) == nil && body.Message != "" {
		msg = body.Message
	}
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	if msg == "" {
		return fmt.Errorf("%s: %s", opID, resp.Status)
	}
	return fmt.Errorf("%s: %s: %s", opID, resp.Status, msg)
}
