package reports_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/schematest"
	"github.com/specgate/specgate/reports"
)

// matchSchema validates doc against a JSON Schema of testdata/schemas and
// returns its complaints.
func matchSchema(t *testing.T, doc []byte, schemaFile string) []string {
	t.Helper()
	return schematest.Complaints(t, doc, filepath.Join("testdata", "schemas", schemaFile))
}

// write writes the run in a format of package reports.
func write(t *testing.T, w reports.Writer, run *reports.Run) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := w(&buf, run); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSARIFMatchesSchema(t *testing.T) {
	doc := write(t, reports.WriteSARIF, testRun(t))
	if errs := matchSchema(t, doc, "sarif-2.1.0-rtm.5.json"); errs != nil {
		t.Errorf("SARIF output does not match the SARIF 2.1.0 schema:\n%s", strings.Join(errs, "\n"))
	}
	// The validator does reject what the schema forbids: a region starting
	// at line 0.
	broken := bytes.Replace(doc, []byte(`"startLine": 4`), []byte(`"startLine": 0`), 1)
	if errs := matchSchema(t, broken, "sarif-2.1.0-rtm.5.json"); len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), "startLine") {
		t.Errorf("a SARIF region at line 0 passed the schema: %v", errs)
	}
}

func TestCTRFMatchesSchema(t *testing.T) {
	doc := write(t, reports.WriteCTRF, testRun(t))
	if errs := matchSchema(t, doc, "ctrf-schema-0.0.json"); errs != nil {
		t.Errorf("CTRF output does not match the CTRF schema:\n%s", strings.Join(errs, "\n"))
	}
	// Lint details are in extra: a field the schema does not know on a
	// test fails it.
	broken := bytes.Replace(doc, []byte(`"rawStatus"`), []byte(`"outputs": [], "rawStatus"`), 1)
	if errs := matchSchema(t, broken, "ctrf-schema-0.0.json"); len(errs) == 0 {
		t.Error("a CTRF test with an unknown field passed the schema")
	}
}
