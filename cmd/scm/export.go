package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
)

func (a *app) exportCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "export", Short: "Export the dashboard pages of a result as workbooks", Args: noArgs}
	cmd.AddCommand(a.exportPageCommand(), a.exportDashboardCommand())
	return cmd
}

func (a *app) exportPageCommand() *cobra.Command {
	var (
		resultID, pageID int64
		output           string
	)
	cmd := &cobra.Command{
		Use:     "page --result ID --page PAGEID -o FILE.xlsx",
		Short:   "Export one dashboard page of a result as an .xlsx workbook",
		Example: "  scm export page --result 5002 --page 5004 -o page.xlsx",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			dl, err := c.Dashboards.ExportPage(cmd.Context(), resultID, pageID)
			if err != nil {
				return err
			}
			defer dl.Close()
			if err := writeFile(output, dl); err != nil {
				return fmt.Errorf("exportDashboardPage: writing %s: %w", output, err)
			}
			return a.wrote(output)
		},
	}
	f := cmd.Flags()
	f.Int64Var(&resultID, "result", 0, "experimentResultId of a finished run (required)")
	f.Int64Var(&pageID, "page", 0, "dashboard page id (required)")
	f.StringVarP(&output, "output", "o", "", "workbook file to write (required)")
	for _, name := range []string{"result", "page", "output"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return a.withTimeLimits(cmd)
}

func (a *app) exportDashboardCommand() *cobra.Command {
	var (
		resultID int64
		output   string
	)
	cmd := &cobra.Command{
		Use:     "dashboard --result ID -o FILE.xlsx",
		Short:   "Export every dashboard page of a result into one .xlsx workbook, a sheet per page",
		Example: "  scm export dashboard --result 5002 -o dashboard.xlsx",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			if err := a.exportDashboard(cmd.Context(), c, resultID, output); err != nil {
				return err
			}
			return a.wrote(output)
		},
	}
	f := cmd.Flags()
	f.Int64Var(&resultID, "result", 0, "experimentResultId of a finished run (required)")
	f.StringVarP(&output, "output", "o", "", "workbook file to write (required)")
	for _, name := range []string{"result", "output"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return a.withTimeLimits(cmd)
}

// exportDashboard writes every page of a result into the workbook output,
// with a progress bar per page.
func (a *app) exportDashboard(ctx context.Context, c *facade.Client, resultID int64, output string) error {
	pages := a.pageProgress()
	defer pages.done()
	return writeFileWith(output, func(w io.Writer) error {
		return dashboard.Export(ctx, c, resultID, w, &dashboard.Options{Progress: pages.update})
	})
}

func (a *app) wrote(path string) error {
	abs, _ := filepath.Abs(path)
	_, err := fmt.Fprintf(a.stdout, "Wrote %s.\n", abs)
	return err
}

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
