package cachedir

import (
	"path/filepath"
	"testing"
)

// The variable wins; without it the folder is under the home folder.
func TestPath(t *testing.T) {
	t.Setenv("SPECGATE_BENCH_CACHE", "/var/cache/bench")
	if got := Path(); got != "/var/cache/bench" {
		t.Errorf("with the variable: %s", got)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("SPECGATE_BENCH_CACHE", "")
	if got, want := Path(), filepath.Join(home, ".cache", "specgate-bench"); got != want {
		t.Errorf("without it: %s, want %s", got, want)
	}
}
