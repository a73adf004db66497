package reports_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/reports"
)

// shard writes part of a run as a shard writes its CTRF report.
func shard(t *testing.T, run *reports.Run, tests []reports.Test, coverage []reports.Coverage, name string, start time.Time, elapsed time.Duration) string {
	t.Helper()
	part := *run
	part.Tests, part.Coverage, part.Start, part.Elapsed, part.Shard = tests, coverage, start, elapsed, name
	path := filepath.Join(t.TempDir(), "ctrf.json")
	if err := os.WriteFile(path, write(t, reports.WriteCTRF, &part), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Shards of a run, merged, are the run: the merged CTRF report is the
// report of the whole run, the html and junit are made from it.
func TestMergeShards(t *testing.T) {
	run := testResults(t)
	// The second shard's coverage has every operation, none tested: the
	// first shard's tests cover them all.
	var untested []reports.Coverage
	for _, c := range run.Coverage {
		u := reports.Coverage{Spec: c.Spec}
		for _, r := range c.Operations {
			if r.Status != reports.MissingInSpec {
				u.Operations = append(u.Operations, reports.CoverageRow{OperationKey: r.OperationKey, Status: reports.NotTested})
			}
		}
		untested = append(untested, u)
	}
	first := shard(t, run, run.Tests[:4], run.Coverage, "1/2", fixed, 30*time.Millisecond)
	second := shard(t, run, run.Tests[4:], untested, "2/2", fixed.Add(20*time.Millisecond), 55*time.Millisecond)
	dir := t.TempDir()
	sink, err := reports.NewSink(reports.DefaultOutputs(dir)...)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := reports.Merge(sink, []string{first, second})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Tests != 9 || sum.Failed != 3 || !sum.Start.Equal(fixed) || sum.Stop.Sub(sum.Start) != 75*time.Millisecond {
		t.Errorf("merged summary = %+v", sum)
	}
	got := readFile(t, filepath.Join(dir, "ctrf-report.json"))
	if want := write(t, reports.WriteCTRF, run); !bytes.Equal(got, want) {
		t.Errorf("the merged report differs from the run's:\n%s", firstDifference(string(got), string(want)))
	}
	for _, f := range []string{"junit.xml", "report.html"} {
		if info, err := os.Stat(filepath.Join(dir, f)); err != nil || info.Size() == 0 {
			t.Errorf("%s was not written: %v", f, err)
		}
	}
}

// An operation covered in any shard is covered; one not covered in one
// shard and not tested in another (its spec ran elsewhere) is not covered.
func TestMergeCoverage(t *testing.T) {
	key := func(path, method, status string) reports.OperationKey {
		return reports.OperationKey{Path: path, Method: method, Status: status}
	}
	row := func(k reports.OperationKey, s reports.CoverageStatus, n int) reports.CoverageRow {
		return reports.CoverageRow{OperationKey: k, Status: s, Tests: n}
	}
	a, b, c := key("/a", "GET", "200"), key("/b", "GET", "200"), key("/c", "GET", "418")
	merged := reports.MergeCoverage(
		[]reports.Coverage{{Spec: "x.yaml", Operations: []reports.CoverageRow{row(a, reports.NotCovered, 1), row(b, reports.NotTested, 0), row(c, reports.MissingInSpec, 1)}}},
		[]reports.Coverage{{Spec: "x.yaml", Operations: []reports.CoverageRow{row(a, reports.Covered, 2), row(b, reports.NotCovered, 1), row(c, reports.MissingInSpec, 2)}},
			{Spec: "y.yaml", Operations: []reports.CoverageRow{row(a, reports.NotTested, 0)}}},
	)
	data, _ := json.Marshal(merged)
	want := `[{"Spec":"x.yaml","Operations":[{"path":"/a","method":"GET","status":"200","coverage":"covered","tests":3},` +
		`{"path":"/b","method":"GET","status":"200","coverage":"not covered","tests":1},` +
		`{"path":"/c","method":"GET","status":"418","coverage":"missing in spec","tests":3}]},` +
		`{"Spec":"y.yaml","Operations":[{"path":"/a","method":"GET","status":"200","coverage":"not tested","tests":0}]}]`
	if string(data) != want {
		t.Errorf("merged coverage:\n%s\nwant:\n%s", data, want)
	}
}

// A file that is not a CTRF report is named with the line and column
// where reading it failed: the value of the wrong type.
func TestMergeBadFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{\n  \"reportFormat\": \"CTRF\",\n  \"results\": {\"tests\": [\n    {\"name\": 7}\n  ]}\n}\n"), 0o644)
	sink, _ := reports.NewSink(reports.DefaultOutputs(filepath.Join(dir, "out"))...)
	_, err := reports.Merge(sink, []string{bad})
	if err == nil || !strings.HasPrefix(err.Error(), bad+":4:14: ") || !strings.HasSuffix(err.Error(), "name is a JSON number, where CTRF has a string") {
		t.Errorf("merging a bad file: %v", err)
	}
	// The column counts characters: "Zürich ✓" is eight, in eleven bytes.
	accented := filepath.Join(dir, "accented.json")
	os.WriteFile(accented, []byte("{\"reportFormat\": \"CTRF\", \"results\": {\"tests\": [\n  {\"name\": \"Zürich ✓\"}, {\"name\": 7}\n]}}\n"), 0o644)
	if _, err := reports.Merge(sink, []string{accented}); err == nil || err.Error() != accented+":2:34: name is a JSON number, where CTRF has a string" {
		t.Errorf("merging a file with accented text before its error: %v", err)
	}
	if _, err := reports.Merge(sink, []string{filepath.Join(dir, "none.json")}); err == nil || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("merging a missing file: %v", err)
	}
}
