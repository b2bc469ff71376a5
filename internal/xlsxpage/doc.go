// Package xlsxpage is what package dashboard and package resultdata share
// to read the page workbooks a server exports: the download of a page
// within a bound of bytes, the zip opened within a bound of parts, each
// part read within one budget of inflated bytes and the caller's context,
// a part named by two sheets refused, a budget of rows and cells for a
// whole result, the limits' defaults, and one sentinel, [ErrMalformed],
// that every error of a page that is not a readable workbook matches (not
// a zip, half a zip, a corrupt deflate stream, broken XML).
//
// A limit gone past is a [*LimitExceeded] carrying the limit's name as
// both packages spell it after their prefix ("PageBytes" is
// dashboard.Options.MaxPageBytes and resultdata.Limits.PageBytes); each
// package turns it into a *limits.Error naming its option.
package xlsxpage
