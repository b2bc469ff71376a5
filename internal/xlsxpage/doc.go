// Package xlsxpage is what package dashboard, package resultdata and the
// fake server share to read workbooks (OOXML packages) a server or a user
// sends: the zip opened within a bound of parts (the directory's claim,
// its bytes and its entries each checked before the zip reader allocates
// for them), each part read within one budget of inflated bytes and the
// caller's context, a part named by two sheets refused, the package's
// relationships read and resolved ([Attr], [RelationshipID],
// [ResolvePart], [RelsPart], [AddRelationship], [OfficeDocument]), a
// budget of rows and cells for a whole result, the limits' defaults, and
// one sentinel, [ErrMalformed], that every error of a workbook that is
// not a readable one matches (not a zip, half a zip, a corrupt deflate
// stream, broken XML). The walk of a result's pages and the download of a
// page within a bound of bytes are in package pagedownload beside it,
// which links the facade: this package does not, so the fake, which the
// facade's tests import, can use it.
//
// A limit gone past is a [*LimitExceeded] carrying the limit's name as
// dashboard and resultdata spell it after their prefix ("PageBytes" is
// dashboard.Options.MaxPageBytes and resultdata.Limits.PageBytes); each
// package turns it into the error of its own option (a *limits.Error for
// the SDK's, the fake's 400 naming WorkbookLimits).
package xlsxpage
