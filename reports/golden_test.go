package reports_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/outputtest"
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
			checkGolden(t, "run."+f.Name+f.Ext, buf.Bytes())
		})
	}
}

// chromeGolden holds the chrome that every HTML report carries alike (the
// head with its style, the script), compared once here rather than in each
// report's golden file.
const chromeGolden = "testdata/golden/chrome.html"

// checkGolden compares what a writer wrote with testdata/golden/name, or
// rewrites it with -update. An HTML page's golden holds what that page
// renders (outputtest.SplitPage); its chrome is compared with chromeGolden.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	files := map[string][]byte{path: got}
	if strings.HasSuffix(name, ".html") {
		own, chrome := outputtest.SplitPage(got)
		files = map[string][]byte{path: own, chromeGolden: chrome}
	}
	for path, got := range files {
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (run with -update after checking):\n%s", name, path, firstDifference(string(got), string(want)))
		}
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
