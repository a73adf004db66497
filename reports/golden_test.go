package reports_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/reports"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden writes the test run in every format and compares it with
// testdata/golden/run.<format><ext>; `go test ./reports -update` rewrites
// them after a deliberate change (review the diff).
func TestGolden(t *testing.T) {
	for _, f := range reports.Formats {
		t.Run(f.Name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := f.Write(&buf, testRun(t)); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", "run."+f.Name+f.Ext)
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from %s (run with -update after checking):\n%s", f.Name, path, firstDifference(buf.String(), string(want)))
			}
		})
	}
}

// firstDifference shows the first line that differs.
func firstDifference(got, want string) string {
	g, w := bytes.Split([]byte(got), []byte("\n")), bytes.Split([]byte(want), []byte("\n"))
	for i := range max(len(g), len(w)) {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			return fmt.Sprintf("line %d:", i+1) + "\n got: " + string(gl) + "\nwant: " + string(wl)
		}
	}
	return "(same lines)"
}
