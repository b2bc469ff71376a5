package fake

import (
	"errors"
	"io"
	"mime/multipart"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/scmodel/scmgo/gen"
)

// maxFieldSize bounds a form field that is not a file.
const maxFieldSize = 64 << 10

// form is a multipart body read as a stream: the values of its fields, and
// its file written to a temporary file (or only counted) without being held
// in memory.
type form struct {
	values   map[string][]string
	fileName string // the name the client gave the file
	filePath string // the temporary copy, "" when not kept
	fileSize int64
}

// readForm streams the parts of a multipart body, checking each field
// against the operation's declaration as it arrives. keepFile says whether
// the file is copied to a temporary file (removed by close) or only counted.
func readForm(op gen.Operation, mr *multipart.Reader, keepFile bool) (*form, error) {
	f := &form{values: map[string][]string{}}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			f.close()
			return nil, bodyReadError("request body: malformed multipart body", err)
		}
		err = f.readPart(op, part, keepFile)
		part.Close()
		if err != nil {
			f.close()
			return nil, err
		}
	}
	if err := f.checkRequired(op); err != nil {
		f.close()
		return nil, err
	}
	return f, nil
}

func (f *form) readPart(op gen.Operation, part *multipart.Part, keepFile bool) error {
	name := part.FormName()
	field, ok := formField(op, name)
	if !ok {
		return badRequest("form field %s: not a field of this operation", quoteText(name))
	}
	if field.Format == "binary" {
		if err := checkFileName(op, name, part.FileName()); err != nil {
			return err
		}
		return f.readFile(part, keepFile)
	}
	b, err := io.ReadAll(io.LimitReader(part, maxFieldSize+1))
	if err != nil {
		return bodyReadError("form field "+name, err)
	}
	if len(b) > maxFieldSize {
		return badRequest("form field %s: longer than %d bytes", name, maxFieldSize)
	}
	if !field.Array && len(f.values[name]) > 0 {
		return badRequest("form field %s: expected one value, got more", name)
	}
	if err := validateValue("form field "+name, field.Type, field.Format, string(b)); err != nil {
		return err
	}
	f.values[name] = append(f.values[name], string(b))
	return nil
}

func (f *form) readFile(part *multipart.Part, keepFile bool) error {
	if f.fileName != "" || f.fileSize > 0 {
		return badRequest("form field file: expected one file, got more")
	}
	f.fileName = part.FileName()
	dst := io.Discard
	if keepFile {
		tmp, err := os.CreateTemp("", "scm-fake-upload-*")
		if err != nil {
			return err
		}
		defer tmp.Close()
		f.filePath, dst = tmp.Name(), tmp
	}
	n, err := io.Copy(dst, part)
	f.fileSize = n
	if err != nil {
		return bodyReadError("form field file", err)
	}
	if n == 0 {
		return badRequest("form field file: the file is empty")
	}
	return nil
}

// workbookImports are the operations whose file is a workbook: the real
// server refuses one whose file name does not end in .xlsx.
var workbookImports = map[string]bool{"importExcel": true, "importExcelExisting": true}

func checkFileName(op gen.Operation, field, name string) error {
	if workbookImports[op.ID] && !strings.HasSuffix(strings.ToLower(name), ".xlsx") {
		return failure("form field %s: the file name %s does not end in .xlsx", field, quoteText(name))
	}
	return nil
}

func (f *form) checkRequired(op gen.Operation) error {
	for _, field := range op.Body.Fields {
		if !field.Required {
			continue
		}
		present := len(f.values[field.Name]) > 0
		if field.Format == "binary" {
			present = f.fileSize > 0
		}
		if !present {
			return badRequest("form field %s is required", field.Name)
		}
	}
	return nil
}

func formField(op gen.Operation, name string) (gen.Field, bool) {
	i := slices.IndexFunc(op.Body.Fields, func(f gen.Field) bool { return f.Name == name })
	if i < 0 {
		return gen.Field{}, false
	}
	return op.Body.Fields[i], true
}

// close removes the temporary file.
func (f *form) close() {
	if f.filePath != "" {
		os.Remove(f.filePath)
	}
}

func (f *form) str(name string) string {
	if v := f.values[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

func (f *form) int64(name string) int64 {
	n, _ := strconv.ParseInt(f.str(name), 10, 64)
	return n
}

func (f *form) bool(name string) bool { return f.str(name) == "true" }

func (f *form) list(name string) []string { return f.values[name] }
