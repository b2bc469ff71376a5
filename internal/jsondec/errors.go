package jsondec

import "strconv"

// Error is a malformed document: Offset is the byte where it stops being
// JSON, Msg what was wrong there, in the words of encoding/json.
type Error struct {
	Offset int64
	Msg    string
}

func (e *Error) Error() string {
	return "malformed JSON at byte " + strconv.FormatInt(e.Offset, 10) + ": " + e.Msg
}
