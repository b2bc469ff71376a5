// Package dashboard merges the dashboard pages of a result into one
// workbook, a sheet per page: the loop real clients write around
// exportDashboardPage, which exports one page at a time, done once.
//
//	f, err := os.Create("dashboard.xlsx")
//	...
//	err = dashboard.Export(ctx, c, resultID, f, nil)
//
// It lives apart from package facade so that a program that only calls the
// server links no workbook library: this package brings excelize and its
// dependencies, facade does not.
//
// # What Export does, and when bytes reach w
//
// [Export] lists the result's pages (facade.DashboardsService.Pages) and
// writes, before it fetches any page, the parts of the workbook that name
// the sheets: the sheet names are made from the page names, unique and at
// most 31 characters. Then, for each page in turn, it reads the page's
// workbook whole into memory (facade.DashboardsService.ExportPage and
// facade.Download.ReadAll, so a page whose answer stalls or breaks off is
// fetched again from its first byte, within the attempts of the client's
// retry policy), streams its rows into the page's sheet with excelize's
// StreamWriter, and writes that sheet, compressed, to w before it fetches
// the next page. The zip's directory ends the workbook. So memory holds
// one page at a time, whatever the number of pages, and w receives each
// page as soon as it is merged.
//
// An error ends the export with w holding a workbook cut off after the
// last page written: write to a temporary file and rename it into place
// on success, as batch.ExportDashboardFile and scm export dashboard do.
package dashboard
