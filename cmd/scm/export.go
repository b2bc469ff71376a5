package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
)

func (a *app) exportCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "export", Short: "Export result pages as workbooks", Args: noArgs}
	cmd.AddCommand(a.exportPageCommand())
	return cmd
}

func (a *app) exportPageCommand() *cobra.Command {
	var (
		rcID, pageID int64
		output       string
	)
	cmd := &cobra.Command{
		Use:   "page --rc RCID --page PAGEID -o FILE.xlsx",
		Short: "Export a result page as an .xlsx workbook",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			dl, err := c.Results.ExportPage(cmd.Context(), rcID, pageID)
			if err != nil {
				return err
			}
			defer dl.Close()
			if err := writeFile(output, dl); err != nil {
				return fmt.Errorf("exportDashboardPage: writing %s: %w", output, err)
			}
			abs, _ := filepath.Abs(output)
			fmt.Fprintf(a.stdout, "Wrote %s.\n", abs)
			return nil
		},
	}
	f := cmd.Flags()
	f.Int64Var(&rcID, "rc", 0, "running configuration id (required)")
	f.Int64Var(&pageID, "page", 0, "page id (required)")
	f.StringVarP(&output, "output", "o", "", "workbook file to write (required)")
	for _, name := range []string{"rc", "page", "output"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}
