package mcp

import (
	"testing"

	"github.com/specgate/specgate/internal/filetest"
)

// A report that cannot be read back is named relative to the root, with
// the line and column (in characters) of what is wrong in it.
func TestFailedInReportError(t *testing.T) {
	dir := t.TempDir()
	s, err := New(Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	report := filetest.File(t, dir, "specgate-reports/ctrf-report.json",
		"{\"reportFormat\": \"CTRF\", \"results\": {\"tests\": [\n  {\"name\": \"Zürich\", \"status\": 1}]}}\n")
	_, _, err = s.failedInReport(report, dir)
	want := "reading the report back: specgate-reports/ctrf-report.json:2:32: status is a JSON number, where CTRF has a string"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
