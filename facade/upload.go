package facade

import (
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/scmodel/scmgo/gen"
)

// Upload is a file sent in a multipart form, streamed: memory does not grow
// with its size. Make one with [UploadFile] or [UploadReader].
type Upload struct {
	name string
	path string
	r    io.Reader
}

// UploadFile sends the file at path; it is opened when the request is sent
// and closed afterwards.
func UploadFile(path string) Upload { return Upload{name: filepath.Base(path), path: path} }

// UploadReader sends what r yields under the given file name. r is read
// once, so a call with it is never tried again, even after a refused
// connection (an attempt may have read part of r): use [UploadFile] for
// retries. A workbook import sends the name with .xlsx appended when it does
// not end so (workbook.xlsx when empty): the server refuses a workbook
// whose file name does not end in .xlsx.
func UploadReader(filename string, r io.Reader) Upload { return Upload{name: filename, r: r} }

// workbookName is the name a workbook's file part carries: the caller's
// when it ends in .xlsx, else that name with .xlsx appended.
func workbookName(name string) string {
	switch {
	case name == "":
		return "workbook.xlsx"
	case strings.HasSuffix(strings.ToLower(name), ".xlsx"):
		return name
	}
	return name + ".xlsx"
}

// workbook is the upload as a workbook import sends it.
func (u Upload) workbook() Upload {
	u.name = workbookName(u.name)
	return u
}

func (u Upload) validate(v *validator) *validator {
	return v.ok("file", u.r != nil || u.path != "", "is required: use UploadFile or UploadReader")
}

func (u Upload) open() (io.ReadCloser, error) {
	if u.r != nil {
		return io.NopCloser(u.r), nil
	}
	return os.Open(u.path)
}

// form is the text fields of a multipart request, in order.
type form []formField

type formField struct{ name, value string }

func (f form) add(name, value string) form { return append(f, formField{name, value}) }

// addID adds an id in its decimal form.
func (f form) addID(name string, id fmt.Stringer) form { return f.add(name, id.String()) }

func (f form) addBool(name string, v bool) form {
	if !v {
		return f
	}
	return f.add(name, "true")
}

func (f form) addAll(name string, values []string) form {
	for _, v := range values {
		f = f.add(name, v)
	}
	return f
}

// multipartCall streams the fields and then the file through a pipe. The
// file is opened before the request is sent, so a missing file fails
// without contacting the server.
func multipartCall(opID gen.OperationID, fields form, file Upload, build func(srv, contentType string, body io.Reader) (*http.Request, error)) call {
	cl := newCall(opID, func(srv string) (*http.Request, error) {
		src, err := file.open()
		if err != nil {
			return nil, fmt.Errorf("opening the file: %w", err)
		}
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() {
			defer src.Close()
			pw.CloseWithError(writeUploadBody(mw, fields, file.name, src))
		}()
		req, err := build(srv, mw.FormDataContentType(), pr)
		if err != nil {
			pr.CloseWithError(err)
		}
		return req, err
	})
	cl.readOnce = file.r != nil
	return cl
}

// writeUploadBody writes the multipart body of an upload: the form's text
// fields in order, then the file as the part "file" named filename.
func writeUploadBody(mw *multipart.Writer, fields form, filename string, src io.Reader) error {
	for _, f := range fields {
		if err := mw.WriteField(f.name, f.value); err != nil {
			return err
		}
	}
	part, err := mw.CreateFormFile("file", filename)
	if err != nil {
		return err
	}
	if _, err := io.Copy(part, uploadSource{src}); err != nil {
		return err
	}
	return mw.Close()
}

// uploadSource is the caller's upload, whose read failures are the
// caller's: the request never went out whole, so it was not sent.
type uploadSource struct{ r io.Reader }

func (s uploadSource) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = unsentError{fmt.Errorf("reading the upload: %w", err)}
	}
	return n, err
}
