// Package cachedir names the folder, outside the repository, where the
// bench commands install the peers they measure against (Spectral,
// Redocly, Vacuum, Prism) and the corpora they download, so that a second
// run reuses them.
package cachedir

import (
	"os"
	"path/filepath"
)

// Path is $SPECGATE_BENCH_CACHE, or .cache/specgate-bench in the user's
// home folder when that is not set. It does not make the folder.
func Path() string {
	if dir := os.Getenv("SPECGATE_BENCH_CACHE"); dir != "" {
		return dir
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "specgate-bench")
}
