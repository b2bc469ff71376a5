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
// the sheets: the sheet names are made from the page names, unique
// ignoring case and at most 31 characters as Excel counts them (UTF-16
// code units), never beginning or ending with an apostrophe. Then, for
// each page in turn, it reads the page's workbook whole into memory
// (facade.DashboardsService.ExportPage and facade.Download.ReadAll, so a
// page whose answer stalls or breaks off is fetched again from its first
// byte, within the attempts of the client's retry policy) and copies the
// rows of its worksheets into the page's sheet as their XML streams out of
// the page's zip: values and types are kept, each text written as an
// inline string (shared strings are looked up in the page's own table),
// and the sheet reaches w compressed as it is copied. The next page
// downloads while one is merged, so the merge takes no time of its own
// when the server takes longer to answer than the client to merge. The
// zip's directory ends the workbook. So memory holds two pages at most,
// the one merged and the one arriving, whatever the number of pages, and
// the merge reads each page once, without a workbook library's cell model.
//
// # A server that sends too much, or what is not a workbook
//
// Every size a page workbook controls is bounded by an option of
// [Options], checked while the page is read: its download (MaxPageBytes),
// what its parts inflate to (MaxInflatedBytes: a zip bomb is refused on
// the sizes its zip declares, and stopped where its parts end if it lies),
// what is held of it (MaxHeldBytes: its shared strings), its parts
// (MaxParts), the characters of a cell (MaxCellChars: a text a cell cannot
// hold is an error, never cut), and its rows and columns (MaxRows,
// MaxColumns); the rows and cells of all the pages together are bounded
// by a budget (MaxResultRows, MaxResultCells). Past one, Export ends with
// a *limits.Error (package github.com/scmodel/scmgo/limits) naming the
// page, what went past, and the option that raises it. A page that is not what
// a spreadsheet writes (not a zip, half a zip, a corrupt deflate stream, a
// sheet whose XML breaks off, rows out of order, a part named by two
// sheets, a shared string not in the table) ends it with an error matching
// [ErrMalformed] that names the page, the sheet and the place; nothing is
// merged silently, and no part is copied twice. Package resultdata reads
// page workbooks through the same reader (internal/xlsxpage), with the
// same limits, defaults and sentinels. A result that lists no pages is
// [ErrNoPages], with nothing written. The context is checked between pages and each time
// more of a part is read (every 64 KiB of its XML at most, so between
// rows), so a cancelled context or a deadline stops a merge at once; a
// failed page ends the download of the next. Export makes no temporary
// file.
//
// # A chart's header
//
// The table data of a chart names no columns; the chart's sheet in its
// page's workbook does, in row 5. [ChartHeader] exports the one page that
// lists the chart and reads the first rows of its sheets, within the same
// limits, to return those names: what scm results table heads its
// columns with.
//
// An error ends the export with w holding a workbook cut off, which no
// reader takes for whole: write to a temporary file and rename it into
// place on success, as [ExportFile] and scm export dashboard do.
package dashboard
