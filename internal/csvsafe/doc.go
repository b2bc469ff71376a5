// Package csvsafe is the one CSV writer of the module and of scm: every
// CSV file or stream they write (resultdata's layouts, so scm results
// export and scm batch --data; scm results table; scm batch's summary)
// goes through [Writer], so that each is safe to open in a spreadsheet.
//
// # Formulas
//
// A text field that begins with =, +, -, @, a tab or a carriage return
// (a spreadsheet would run it as a formula) is written with a single
// quote before it ([EscapeFormula]), as OWASP's advice on CSV injection
// and csv-stringify's escape_formulas have it: headers, names and cells
// alike. A number ([Writer.Number]) is written as it is, -5 included: a
// spreadsheet reads it as the number it is. [Options.KeepFormulas] writes
// every field as given, for a file no spreadsheet opens.
//
// # Dialect
//
// RFC 4180: records end with CRLF; a field is quoted when it holds a
// comma, a quote, a CR or an LF, its quotes doubled; line breaks within a
// field are kept as they are.
package csvsafe
