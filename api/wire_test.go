package api_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

// recorded is what the server saw of one request.
type recorded struct {
	method, path, contentType, auth string
	query                           url.Values
	formFields                      []string
}

// recorder is an httptest server mounted under /api/v1 that keeps the last
// request it saw and answers 200 with an empty JSON object.
type recorder struct {
	mu   sync.Mutex
	last recorded
	srv  *httptest.Server
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		rec := recorded{method: req.Method, path: req.URL.Path, query: req.URL.Query(),
			contentType: req.Header.Get("Content-Type"), auth: req.Header.Get("Authorization")}
		if mt, params, err := mime.ParseMediaType(rec.contentType); err == nil && mt == "multipart/form-data" {
			rec.formFields = formFieldNames(t, req.Body, params["boundary"])
		}
		r.mu.Lock()
		r.last = rec
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, "{}")
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) lastRequest() recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

func formFieldNames(t *testing.T, body io.Reader, boundary string) []string {
	var names []string
	mr := multipart.NewReader(body, boundary)
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if !assert.NoError(t, err) {
			break
		}
		names = append(names, part.FormName())
	}
	return names
}

// TestGeneratedClientWire calls every operation through the generated client
// with every parameter set, and checks what reaches the server: the
// documented method and path under /api/v1, every query parameter by name
// (lists exploded), the content type and the Authorization header.
func TestGeneratedClientWire(t *testing.T) {
	rec := newRecorder(t)
	client, err := gen.NewClient(rec.srv.URL+"/api/v1", gen.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "test-key")
		return nil
	}))
	require.NoError(t, err)

	ops := gen.Operations()
	require.Len(t, ops, len(specOperations(loadSpec(t))), "gen.Operations has every operation of the spec: run make generate")
	for _, op := range ops {
		t.Run(op.ID, func(t *testing.T) {
			resp, err := callWithEveryInput(t, client, op)
			require.NoError(t, err)
			resp.Body.Close()

			got := rec.lastRequest()
			assert.Equal(t, op.Method, got.method)
			assert.Equal(t, "/api/v1"+op.Path, got.path)
			assert.Equal(t, "test-key", got.auth)
			assert.Equal(t, wantQuery(op), sortedQueryNames(got.query))
			for _, p := range op.Params {
				if p.Array {
					assert.Len(t, got.query[p.Name], 2, "list %s is exploded", p.Name)
				}
			}
			switch {
			case op.Body == nil:
				assert.Empty(t, got.contentType)
			case op.Body.MediaType == "multipart/form-data":
				assert.True(t, strings.HasPrefix(got.contentType, "multipart/form-data; boundary="), got.contentType)
				assert.Equal(t, wantFormFields(op), got.formFields)
			default:
				assert.Equal(t, "application/json", got.contentType)
			}
		})
	}
}

func wantQuery(op gen.Operation) []string {
	var names []string
	for _, p := range op.Params {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return names
}

func sortedQueryNames(q url.Values) []string {
	var names []string
	for name := range q {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func wantFormFields(op gen.Operation) []string {
	var names []string
	for _, f := range op.Body.Fields {
		names = append(names, f.Name)
		if f.Array {
			names = append(names, f.Name)
		}
	}
	return names
}

// callWithEveryInput finds the generated client method of op by name and
// calls it with every parameter set. Multipart operations go through their
// ...WithBody method with a form holding every field.
func callWithEveryInput(t *testing.T, client *gen.Client, op gen.Operation) (*http.Response, error) {
	name := strings.ToUpper(op.ID[:1]) + op.ID[1:]
	if op.Body != nil && op.Body.MediaType == "multipart/form-data" {
		name += "WithBody"
	}
	m := reflect.ValueOf(client).MethodByName(name)
	require.True(t, m.IsValid(), "gen.Client has no method %s", name)

	var args []reflect.Value
	for i := 0; i < m.Type().NumIn()-1; i++ { // the last input is the variadic request editors
		in := m.Type().In(i)
		switch {
		case in.String() == "context.Context":
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			t.Cleanup(cancel)
			args = append(args, reflect.ValueOf(ctx))
		case in.Kind() == reflect.Pointer && strings.HasSuffix(in.Elem().Name(), "Params"):
			args = append(args, filledParams(t, in.Elem(), op))
		case in.Kind() == reflect.String: // content type of a WithBody call
			body, contentType := multipartBody(t, op)
			args = append(args, reflect.ValueOf(contentType), reflect.ValueOf(body))
			i++
		default: // a JSON body: its zero value
			args = append(args, reflect.New(in).Elem())
		}
	}
	out := m.Call(args)
	resp, _ := out[0].Interface().(*http.Response)
	err, _ := out[1].Interface().(error)
	return resp, err
}

// filledParams builds a *XxxParams with every field set to a sample value of
// its type. Enumerations take their first value from the operation table.
func filledParams(t *testing.T, typ reflect.Type, op gen.Operation) reflect.Value {
	v := reflect.New(typ)
	for i := range typ.NumField() {
		field := v.Elem().Field(i)
		tag := strings.Split(typ.Field(i).Tag.Get("form"), ",")[0]
		p, ok := op.Param(tag)
		require.True(t, ok, "%s: field %s (form %q) is not a parameter of the spec", op.ID, typ.Field(i).Name, tag)
		setSample(field, p)
	}
	return v
}

func setSample(field reflect.Value, p gen.Param) {
	target := field
	if field.Kind() == reflect.Pointer {
		field.Set(reflect.New(field.Type().Elem()))
		target = field.Elem()
	}
	switch target.Kind() {
	case reflect.Slice:
		s := reflect.MakeSlice(target.Type(), 2, 2)
		s.Index(0).SetString("a")
		s.Index(1).SetString("b")
		target.Set(s)
	case reflect.String:
		if len(p.Enum) > 0 {
			target.SetString(p.Enum[0])
		} else {
			target.SetString("x")
		}
	case reflect.Int32, reflect.Int64:
		target.SetInt(7)
	case reflect.Bool:
		target.SetBool(true)
	default:
		panic(fmt.Sprintf("no sample for %s", target.Type()))
	}
}

func multipartBody(t *testing.T, op gen.Operation) (io.Reader, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range op.Body.Fields {
		values := []string{"1"}
		if f.Array {
			values = []string{"a", "b"}
		}
		for _, v := range values {
			if f.Format == "binary" {
				fw, err := w.CreateFormFile(f.Name, "book.xlsx")
				require.NoError(t, err)
				_, _ = io.WriteString(fw, "PK")
				continue
			}
			require.NoError(t, w.WriteField(f.Name, v))
		}
	}
	require.NoError(t, w.Close())
	return &buf, w.FormDataContentType()
}
