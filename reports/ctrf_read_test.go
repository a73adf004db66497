package reports_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// TestCTRFErrorOffsets: an error about a test of a CTRF report points at
// the value that is wrong (a test's member of the wrong type, or a byte
// that breaks the JSON), not past the test, however many tests and
// separators come before it.
func TestCTRFErrorOffsets(t *testing.T) {
	const head = `{"reportFormat": "CTRF", "results": {"tests": [` + "\n" +
		`  {"name": "first", "status": "passed", "duration": 1},` + "\n  "
	for _, tc := range []struct {
		name, doc string
		at        string // the report from the offset on
		msg       string
	}{
		{"a name that is a number", head + `{"name": 3, "status": "passed"}]}}`, `3, "status"`, "name is a JSON number, where CTRF has a string"},
		{"a duration that is a string", head + `{"name": "b", "status": "passed", "duration": "1s"}]}}`, `"1s"}`, "duration is a JSON string, where CTRF has a number"},
		{"a status that is an object", head + `{"name": "b",` + "\n" + `   "status": {"s": 1}}]}}`, `{"s": 1}`, "status is a JSON object"},
		{"the first test, an array", `{"reportFormat": "CTRF", "results": {"tests": [ [1] ]}}`, `[1] ]`, "is a JSON array"},
		{"a broken test", head + `{"name": "b",, "status": "passed"}]}}`, `, "status"`, "invalid character ','"},
		{"a test after accented names", head + `{"name": "Zürich ✓", "status": "passed"},` + "\n" + ` {"name": "Ωmega", "status": 1}]}}`, `1}]`, "status is a JSON number"},
		{"a summary of the wrong type", `{"reportFormat": "CTRF", "results": {"summary": {"tests": "3"}, "tests": []}}`, `"3"}`, "tests is a JSON string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := reports.DecodeCTRF(strings.NewReader(tc.doc), func(*reports.Test) error { return nil })
			var ce *reports.CTRFError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v, want a CTRFError", err)
			}
			if got := tc.doc[min(ce.Offset, int64(len(tc.doc))):]; !strings.HasPrefix(got, tc.at) {
				t.Errorf("the error is at %q, want %q", got, tc.at)
			}
			if at := spec.PosAt([]byte(tc.doc), int(ce.Offset)); ce.Line != int(at.Line) || ce.Col != int(at.Col) {
				t.Errorf("the error is at line %d, column %d; its offset %d is at %d:%d", ce.Line, ce.Col, ce.Offset, at.Line, at.Col)
			}
			if !strings.Contains(ce.Err.Error(), tc.msg) {
				t.Errorf("error %q, want it to say %q", ce.Err, tc.msg)
			}
		})
	}
}

// FuzzCTRFErrorPosition: whatever the report holds, an error's line and
// column are those of its offset, counted over the whole text as
// spec.PosAt counts them, though the reader lets go of the bytes behind it.
func FuzzCTRFErrorPosition(f *testing.F) {
	f.Add(`{"reportFormat": "CTRF", "results": {"tests": [` + "\n" + `{"name": "Zürich ✓", "status": 7}]}}`)
	f.Add(`{"reportFormat": "JUnit"}`)
	f.Add("{\"reportFormat\": \"CTRF\",\n \"results\": {\"tests\": [{\"name\": \"\xff\xfe\"},\n {\"name\": 1}]}}")
	f.Add(`{"results": {"tests": [{}, {"steps": [1, 2]}, {"name": "é",, }]}}`)
	f.Fuzz(func(t *testing.T, doc string) {
		_, err := reports.DecodeCTRF(strings.NewReader(doc), func(*reports.Test) error { return nil })
		var ce *reports.CTRFError
		if !errors.As(err, &ce) {
			return
		}
		if at := spec.PosAt([]byte(doc), int(ce.Offset)); ce.Line != int(at.Line) || ce.Col != int(at.Col) {
			t.Errorf("%v: offset %d is at %d:%d", ce, ce.Offset, at.Line, at.Col)
		}
	})
}
