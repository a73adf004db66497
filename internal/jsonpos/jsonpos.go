// Package jsonpos places encoding/json's errors in the text they were read
// from: the offset an UnmarshalTypeError gives follows a string or a
// number but only the first byte of an object or an array, and the
// messages of specgate's readers name where the wrong value starts.
package jsonpos

import (
	"bytes"
	"encoding/json"
)

// ValueStart is the offset in data where the value starts that an
// UnmarshalTypeError's Offset (after) follows, data being the valid JSON
// that was unmarshalled: Unmarshal counts a literal as read up to its end,
// and an object or an array up to its opening delimiter. Outside data's
// values, it is after-1.
func ValueStart(data []byte, after int64) int64 {
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		start := dec.InputOffset()
		if _, err := dec.Token(); err != nil {
			return max(after-1, 0)
		}
		if dec.InputOffset() >= after {
			return NextValue(data, start)
		}
	}
}

// NextValue is the offset where the value starts that follows offset in
// data, past the white space and the separator (',' or ':') that a
// json.Decoder's InputOffset leaves before it.
func NextValue(data []byte, offset int64) int64 {
	space := func() {
		for offset < int64(len(data)) && bytes.IndexByte([]byte(" \t\r\n"), data[offset]) >= 0 {
			offset++
		}
	}
	space()
	if offset < int64(len(data)) && (data[offset] == ':' || data[offset] == ',') {
		offset++
	}
	space()
	return offset
}
