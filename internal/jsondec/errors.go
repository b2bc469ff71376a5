package jsondec

import "strconv"

// Error is a malformed document: Offset is the byte where it stops being
// JSON, Msg what was wrong there, in the words of encoding/json. A decode
// stopped by its context ([Options].Context) is an Error too, at the byte
// reached, that wraps the context's error.
type Error struct {
	Offset int64
	Msg    string
	cause  error
}

func (e *Error) Error() string {
	if e.cause != nil {
		return "JSON decoding stopped at byte " + strconv.FormatInt(e.Offset, 10) + ": " + e.cause.Error()
	}
	return "malformed JSON at byte " + strconv.FormatInt(e.Offset, 10) + ": " + e.Msg
}

// Unwrap returns the context's error of a decode that was stopped, nil for
// a malformed document.
func (e *Error) Unwrap() error { return e.cause }
