// Package resultdata turns the numbers of a result into tidy rows, and
// writes them as CSV, JSON Lines or (package resultdata/parquetfile)
// Parquet. On the real server a result's numbers reach clients only in
// the dashboard workbooks: this package is the parser of those workbooks
// that every user would otherwise write.
//
//	for row, err := range resultdata.Result(ctx, c, resultID, nil) {
//		if err != nil {
//			log.Fatal(err)
//		}
//		fmt.Println(row.Chart.Page, "|", row.Chart.Name, "|", row.Values[0], row.Values[1])
//	}
//
// # Sources
//
// Rows are streamed as iter.Seq2[[Row], error] from:
//
//   - [Result]: every dashboard page of a result, downloaded page by page
//     (exportDashboardPage) and read as [ReadPage] reads it;
//   - [ReadPage]: one dashboard page's workbook, as the server exports it;
//   - [ReadMerged]: a merged dashboard workbook, as dashboard.Export
//     writes it, a sheet per page;
//   - [ReadTable]: a table chart read through the JSON operations, when it
//     holds rows ([ChartTable] reads the model the spec infers; the real
//     server's tables were all empty, in a model of their own, so the
//     source is an interface, [TableSource]).
//
// # The recorded layout
//
// A page workbook of the real product has a sheet per chart: rows 1 to 3
// hold "Type:", "Statistics:" and "Chart name:" with their values in
// column B, row 4 is empty, row 5 is the header (Statistics name | Time |
// Value, or Iteration | Period | From | To | ...), and the data start at
// row 6. Each [Row] carries where it came from ([Chart]: result, page,
// sheet, the metadata) and a [Value] per column of the header, typed as
// the cell is: numbers as numbers, booleans as booleans, text as text, and
// times as times where the cell is formatted as a date, or the header
// names a time ([IsTimeColumn]: Time, From, To, Date, ...) and the cell's
// text is one.
//
// # Odd layouts, and notes
//
// What differs from that layout is read where it can be, and never
// silently: each sheet, or part of one, that was not read as the layout
// says is reported as a [Note] (to [Options.Notes], or logged), saying
// what was found, what was done or skipped, and where. The reader takes:
//
//   - no metadata rows, or some missing: the header is the first row that
//     is no metadata; the missing metadata are empty ([NoMetadata]);
//   - a second header row (text over columns of numbers): the columns are
//     named by both rows ([SecondHeader]); a data row that repeats the
//     header is skipped ([RepeatedHeader]);
//   - empty sheets, metadata without a header, a header without data
//     ([EmptySheet], [NoData]);
//   - cells of another type than their column's: each is read as what it
//     holds ([OtherType]); numbers without a date format in a time column,
//     as dashboard.Export copies dates, are read as day numbers
//     ([DayNumbers]);
//   - merged cells: the first cell's value is read in each cell of the
//     range ([Merged]);
//   - header cells that are empty or repeat a name, cells right of the
//     header ([Unnamed]);
//   - a sheet that cannot be read to its end: the rows before are read
//     ([Unreadable]).
//
// # Layouts of the files written
//
// The long layout ([LongColumns]; [NewCSV], [NewJSONL],
// parquetfile.NewLong) has a record per value: where it came from, its
// row, its column's name, its kind, and the value in one of four typed
// columns (number, time, text, bool). Every number of a result, or of many
// results, is one table that DuckDB, pandas or Polars query at once:
//
//	SELECT page, chart_name, sum(number) FROM 'result.parquet'
//	WHERE "column" = 'Value' GROUP BY ALL;
//
// and a chart's own table is its pivot on column (DuckDB's PIVOT, pandas'
// pivot). [NewKeyedCSV], [NewKeyedJSONL] and parquetfile.NewKeyedLong
// write the long layout with columns of one value each first ([Key],
// [KeyedColumns]): what tells apart the results of a dataset of many, as
// package batch writes one keyed by item, scenario_id and rc_id. The chart layout ([WideColumns]; [NewChartCSV], [NewChartJSONL],
// parquetfile.NewChart) is a file per chart, a row per data row, the
// provenance columns then the chart's own, typed by their kind.
//
// # Memory, speed and limits
//
// Workbooks are read part by part, XML token by token, straight from the
// zip: memory holds a row, the workbook's shared strings (one text, four
// bytes a string) and, for [Result], one page's workbook, whatever the
// number of pages and rows; the writers stream. Row.Values is reused
// between rows: [Row.Clone] keeps a row. What a workbook can make the
// reader hold or do is bounded by [Limits], the limits of
// dashboard.Options among them, read through the same reader (package
// internal/xlsxpage): the download of a page, what its parts inflate to
// (each part counted once, however often it is read), its parts, and a
// budget of rows and cells for a whole result. Past one, the iteration
// ends with a [*limits.Error] naming it. Rows numbered out of order, and a
// part named by two sheets, end it as [ErrMalformed]: no part is read as
// the rows of two sheets. The context is checked each time more of a part
// is read and before each row is yielded. BENCHMARKS.md has the figures.
//
// # Errors
//
// A page that is not a readable workbook (not a zip, a zip cut off, a
// corrupt deflate stream, a broken workbook part) ends the iteration with
// an error matching [ErrMalformed], dashboard.ErrMalformed itself; a sheet
// whose XML breaks off is read up to there and noted ([Unreadable]). A
// limit's error is a [*limits.Error], the one of every package, matching
// [limits.ErrLimit], and the budget's matches [ErrResultTooLarge] too. A result that lists no pages is [ErrNoPages].
//
// # CSV and spreadsheets
//
// The CSV writers neutralise text a spreadsheet would run as a formula
// ([EscapeFormula]: a single quote before a text beginning with =, +, -,
// @, a tab or a carriage return), in every text field: cells, names and
// headers. They write through internal/csvsafe, the one CSV writer of the
// module and of scm. Numbers are never changed. [CSVOptions.KeepFormulas] writes the
// text as sent; JSON Lines and Parquet always do.
package resultdata
