package prof

import (
	"os"
	"path/filepath"
	"testing"
)

// A started profile is written to its file when stopped, and a file that
// cannot be created is an error before anything starts.
func TestStartCPU(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	stop, err := StartCPU(path)
	if err != nil {
		t.Fatal(err)
	}
	before := CPUTime()
	for n := 0; CPUTime()-before < 20e6; n++ {
		_ = n * n
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Fatalf("profile %s not written: %v", path, err)
	}
	if _, err := StartCPU(filepath.Join(t.TempDir(), "missing", "cpu.prof")); err == nil {
		t.Error("a profile in a missing folder started")
	}
}
