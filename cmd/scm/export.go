package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/limits"
)

func (a *app) exportCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "export", Short: "Export the dashboard pages of a result as workbooks", Args: noArgs}
	cmd.AddCommand(a.exportPageCommand(), a.exportDashboardCommand())
	return cmd
}

func (a *app) exportPageCommand() *cobra.Command {
	var (
		resultID ids.ExperimentResultID
		pageID   ids.PageID
		out      *output
	)
	cmd := &cobra.Command{
		Use:   "page RESULT --page PAGE [-o FILE.xlsx]",
		Short: "Export one dashboard page of a result as an .xlsx workbook",
		Long: `page exports one dashboard page of a result (its experimentResultId is what
scm run --wait or --sync prints; scm results pages lists its pages) as the
workbook the server makes of it, written as it is. The workbook goes to
standard output unless -o names a file; it is not written to a terminal.`,
		Example: "  scm export page 5002 --page 5004 -o page.xlsx",
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			dl, err := c.Dashboards.ExportPage(cmd.Context(), resultID, pageID)
			if err != nil {
				return a.resultIDHint(cmd.Context(), c, resultID, err)
			}
			defer dl.Close()
			if _, err := io.Copy(a.binaryStdout(), dl); err != nil {
				return writingError{path: out.path, err: err}
			}
			return nil
		},
	}
	idArg(cmd, &resultID, "result")
	idVar(cmd, &pageID, "page", "dashboard page id, as scm results pages RESULT lists it (required)")
	_ = cmd.MarkFlagRequired("page")
	out = a.withOutput(cmd, formatXLSX)
	return a.withTimeLimits(cmd)
}

func (a *app) exportDashboardCommand() *cobra.Command {
	var (
		resultID ids.ExperimentResultID
		limits   pageLimits
		out      *output
	)
	cmd := &cobra.Command{
		Use:   "dashboard RESULT [-o FILE.xlsx]",
		Short: "Export every dashboard page of a result into one .xlsx workbook, a sheet per page",
		Long: `dashboard exports every dashboard page of a result (its experimentResultId is
what scm run --wait or --sync prints) and merges them into one workbook, a
sheet per page. The workbook goes to standard output unless -o names a
file; it is not written to a terminal. A file is written whole, or left as
it was when the export fails.`,
		Example: "  scm export dashboard 5002 -o dashboard.xlsx",
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			opts, err := limits.options()
			if err != nil {
				return err
			}
			pages := 0
			opts.Progress = func(p dashboard.Progress) { pages = p.Total }
			out.summary = func() string { return fmt.Sprintf("%d pages (a sheet each)", pages) }
			if err := a.exportDashboardTo(cmd.Context(), c, resultID, a.binaryStdout(), opts); err != nil {
				return a.resultIDHint(cmd.Context(), c, resultID, err)
			}
			return nil
		},
	}
	idArg(cmd, &resultID, "result")
	limits.flags(cmd)
	out = a.withOutput(cmd, formatXLSX)
	return a.withTimeLimits(cmd)
}

// exportDashboard writes every page of a result into the workbook file
// output, with a progress bar per page.
func (a *app) exportDashboard(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, output string) error {
	return a.writeFile(output, func(w io.Writer) error {
		return a.exportDashboardTo(ctx, c, resultID, w, dashboard.Options{})
	})
}

// exportDashboardTo writes every page of a result into one workbook on w,
// within the limits of opts, with a progress bar per page.
func (a *app) exportDashboardTo(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, w io.Writer, opts dashboard.Options) error {
	pages := a.pageProgress()
	defer pages.done()
	progress := opts.Progress
	opts.Progress = func(p dashboard.Progress) {
		if progress != nil {
			progress(p)
		}
		pages.update(p)
	}
	return withLimitFlag(dashboard.Export(ctx, c, resultID, w, &opts))
}

// pageLimits are the flags of scm export dashboard that set the limits on
// a page workbook a server sends, in MiB.
type pageLimits struct{ page, inflated, held int64 }

// pageLimitFlags name the flag that raises each limit of dashboard.Options
// the command sets.
var pageLimitFlags = map[string]string{
	"Options.MaxPageBytes": "--max-page-mib", "Options.MaxInflatedBytes": "--max-inflated-mib", "Options.MaxHeldBytes": "--max-held-mib",
}

func (l *pageLimits) flags(cmd *cobra.Command) {
	f, d := cmd.Flags(), dashboard.DefaultOptions()
	f.Int64Var(&l.page, "max-page-mib", 0, fmt.Sprintf("the largest page workbook to download, in MiB (0: %d)", d.MaxPageBytes>>20))
	f.Int64Var(&l.inflated, "max-inflated-mib", 0, fmt.Sprintf("the most a page workbook's parts may inflate to, in MiB (0: %d)", d.MaxInflatedBytes>>20))
	f.Int64Var(&l.held, "max-held-mib", 0, fmt.Sprintf("the most held in memory of a page workbook's shared strings, in MiB (0: %d)", d.MaxHeldBytes>>20))
}

// options are the dashboard options of the flags.
func (l *pageLimits) options() (dashboard.Options, error) {
	for flag, v := range map[string]int64{"--max-page-mib": l.page, "--max-inflated-mib": l.inflated, "--max-held-mib": l.held} {
		if v < 0 || v > 1<<30 {
			return dashboard.Options{}, usagef("%s %d is out of range (0 to %d)", flag, v, 1<<30)
		}
	}
	return dashboard.Options{MaxPageBytes: l.page << 20, MaxInflatedBytes: l.inflated << 20, MaxHeldBytes: l.held << 20}, nil
}

// withLimitFlag says of a page past a limit which flag raises it, in
// place of the SDK's option.
func withLimitFlag(err error) error {
	var lerr *limits.Error
	if errors.As(err, &lerr) && !lerr.Fixed {
		if flag, ok := pageLimitFlags[lerr.Limit]; ok {
			shell := fmt.Sprintf("%s exceeds the limit of %d bytes: %s raises it if the server is trusted to send more", lerr.What, lerr.Max, flag)
			return shellText{err: err, text: strings.Replace(err.Error(), lerr.Error(), shell, 1)}
		}
	}
	return err
}

// writingError is a download that failed while its workbook was written
// to path: the message names the file.
type writingError struct {
	path string
	err  error
}

func (e writingError) Error() string {
	where := e.path
	if where == "-" {
		where = "standard output"
	}
	cause := strings.TrimPrefix(strings.TrimPrefix(e.err.Error(), "facade: "), "exportDashboardPage: ")
	return "exportDashboardPage: writing " + where + ": " + cause
}
func (e writingError) Unwrap() error { return e.err }

// shellText is an error with a text for the shell in place of the SDK's.
type shellText struct {
	err  error
	text string
}

func (e shellText) Error() string { return e.text }
func (e shellText) Unwrap() error { return e.err }

// pageBars shows one progress display per dashboard page.
type pageBars struct {
	a     *app
	index int
	bar   *progress
}

func (a *app) pageProgress() *pageBars { return &pageBars{a: a} }

func (b *pageBars) update(p dashboard.Progress) {
	if p.Index != b.index {
		b.done()
		b.index = p.Index
		b.bar = b.a.newProgress(fmt.Sprintf("page %d/%d %s", p.Index, p.Total, p.Page.Name))
	}
	switch {
	case p.Stage == dashboard.Written:
		b.bar.update("written", 100)
	case b.bar.bar == nil:
		// plain lines: one per page, when it is written
	case p.Stage == dashboard.Merging:
		b.bar.update("merge", 99)
	case p.Size > 0:
		b.bar.update("download", min(98, float64(p.Bytes)*98/float64(p.Size)))
	default:
		b.bar.update("download", 0)
	}
}

func (b *pageBars) done() {
	if b.bar != nil {
		b.bar.done()
		b.bar = nil
	}
}
