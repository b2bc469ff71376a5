package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

func (a *app) callCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "call OPERATION [--PARAM VALUE ...] [--body @FILE.json|-] [-o FILE]",
		Short: "Call any operation by its camelCase or snake_case name",
		Long: `Call any operation of the remote interface by its camelCase or snake_case
name; 'scm ops' lists them and 'scm call OPERATION --help' describes one.
Parameters are given as --name value and are checked against the spec before
anything is sent: an unknown parameter or a bad value exits with 2, and so do
missing required ones, all named at once. A required parameter the spec gives
a default (fullMatch) takes it when not given. Lists repeat the flag. File
fields of the import operations take @path.

A JSON body is given with --body @file.json, --body - (standard input) or
inline JSON. JSON responses are printed (indented on a terminal); workbooks
need -o FILE. --timeout bounds the whole call, retries included, and
--request-timeout each request's wait on a silent server.`,
		Example: `  scm call getScenarios --projectId 1
  scm call get_scenarios --projectId 1
  scm call find_and_open_project_by_name --projectName "Retail Network"
  scm call getExperimentRunConfiguration --rcId 10303
  scm call updateExperimentRunConfiguration --rcId 10303 --body @rc.json
  scm call importExcel --projectId 1 --newScenarioName Base --needToImportExperiments true --file @network.xlsx
  scm call exportDashboardPage --experimentResultId 5002 --pageId 5004 -o page.xlsx`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if slices.Contains(args, "-h") || slices.Contains(args, "--help") {
				return a.callHelp(cmd, args)
			}
			c, err := a.parseCall(args)
			if err != nil {
				return err
			}
			out := a.callOutput(c)
			if err := out.resolve(); err != nil {
				return usagef("%s: %w", c.op.ID, err)
			}
			a.fillFromEnv()
			ctx, cancel := a.limitTime(cmd.Context())
			defer cancel()
			return out.run(func() error { return a.send(ctx, c) })
		},
	}
	// call parses its own command line; these are its flags, for the help.
	f := cmd.Flags()
	f.StringP("output", "o", "-", "write the answer to `PATH`; - is standard output (a workbook is not written to a terminal)")
	f.String("format", "", "json, or xlsx for an operation that answers a workbook: the answer's format, checked against -o's extension")
	f.Bool("no-follow", false, "refuse to write through a symbolic link at a path it writes")
	setAnnotation(cmd, annotationFormats, "json,xlsx")
	return cmd
}

// callOutput is where call writes the answer: -o, in the operation's
// format (a workbook, or JSON).
func (a *app) callOutput(c callArgs) *output {
	answer := formatJSON
	if c.op.Response.Binary {
		answer = formatXLSX
	}
	path := c.output
	if path == "" {
		path = "-"
	}
	return &output{a: a, formats: []format{answer}, path: path, given: c.format}
}

// send performs a checked call through the facade (authentication,
// retries of safe operations, typed errors) and writes its response.
func (a *app) send(ctx context.Context, c callArgs) error {
	in, err := a.rawRequest(c)
	if err != nil {
		return err
	}
	client, err := a.client()
	if c.op.ID == string(gen.OpRunExperimentSynchronously) {
		client, err = a.runClient() // it answers when the run is done
	}
	if err != nil {
		return err
	}
	resp, err := client.Call(ctx, c.op.ID, in)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return a.writeResponse(c, resp.Body)
}

// rawRequest turns a checked command line into the operation's inputs.
func (a *app) rawRequest(c callArgs) (facade.RawRequest, error) {
	in := facade.RawRequest{Query: url.Values{}}
	for _, p := range c.op.Params {
		if v, ok := c.values[p.Name]; ok {
			in.Query[p.Name] = v
		}
	}
	switch {
	case c.op.Body == nil:
	case c.op.Body.MediaType == "multipart/form-data":
		return in, formBody(c, &in)
	case c.body != "":
		raw, err := a.readBody(c.body)
		if err != nil {
			return in, usagef("%s: --body: %v", c.op.ID, err)
		}
		if !json.Valid(raw) {
			return in, usagef("%s: --body is not valid JSON", c.op.ID)
		}
		in.ContentType, in.LogBody = "application/json", raw
		in.Body = func() (io.Reader, error) { return bytes.NewReader(raw), nil }
	}
	return in, nil
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

// formBody streams the multipart form through a pipe when the request is
// built, so a large file is never held in memory. The files are checked
// first, so a bad path is a usage error before anything is sent.
func formBody(c callArgs, in *facade.RawRequest) error {
	paths := map[string]string{}
	for _, f := range c.op.Body.Fields {
		if f.Format != "binary" || len(c.values[f.Name]) == 0 {
			continue
		}
		path := c.values[f.Name][0][1:]
		if err := readableFile(path); err != nil {
			return usagef("%s: --%s: %v", c.op.ID, f.Name, err)
		}
		paths[f.Name] = path
	}
	mw := multipart.NewWriter(nil)
	in.ContentType = mw.FormDataContentType()
	in.Body = func() (io.Reader, error) {
		pr, pw := io.Pipe()
		w := multipart.NewWriter(pw)
		if err := w.SetBoundary(mw.Boundary()); err != nil {
			return nil, err
		}
		go func() { pw.CloseWithError(writeForm(w, c, paths)) }()
		return pr, nil
	}
	return nil
}

func writeForm(mw *multipart.Writer, c callArgs, files map[string]string) error {
	for _, f := range c.op.Body.Fields {
		if path, ok := files[f.Name]; ok {
			if err := copyFilePart(mw, f.Name, path); err != nil {
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

// readableFile checks that path is a regular file this process can open,
// so a bad upload is a usage error before anything is sent.
func readableFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	return nil
}

func copyFilePart(mw *multipart.Writer, field, path string) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	w, err := mw.CreateFormFile(field, filepath.Base(path))
	if err != nil {
		return err
	}
	_, err = io.Copy(w, file)
	return err
}

// writeResponse writes the answer to standard output (-o's file): a
// workbook as it is, JSON as the server sent it, indented on a terminal.
func (a *app) writeResponse(c callArgs, body io.Reader) error {
	if c.op.Response.Binary {
		_, err := io.Copy(a.binaryStdout(), body)
		return err
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
