package spec

import (
	"bytes"
	"unicode/utf8"
)

// PosAt is the position of a byte offset of a text: its 1-based line, and
// its column counted in characters as a Node's positions are. An offset
// outside the text is taken at the nearer end. Decoders that report byte
// offsets (encoding/json's errors, a request body's) place them with it.
func PosAt(text []byte, offset int) Pos {
	before := text[:min(max(offset, 0), len(text))]
	start := bytes.LastIndexByte(before, '\n') + 1
	return Pos{Line: int32(1 + bytes.Count(before[:start], []byte{'\n'})), Col: int32(1 + utf8.RuneCount(before[start:]))}
}
