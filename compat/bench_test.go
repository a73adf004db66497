package compat

import (
	"context"
	"os"
	"testing"

	"github.com/specgate/specgate/spec"
)

// BenchmarkGitHubAgainstItself loads github.json (13 MB) twice and
// compares the two: the whole cost of `backward-compatibility-check
// github.json github.json`. The budget is 2 s and 600 MiB.
func BenchmarkGitHubAgainstItself(b *testing.B) {
	const path = "../../shared/corpus/github.json"
	if _, err := os.Stat(path); err != nil {
		b.Skip("corpus not present")
	}
	for b.Loop() {
		res := CheckFiles(context.Background(), Options{Loader: spec.NewLoader(spec.Options{})}, path, path)
		if res.Reason != ReasonUnchanged {
			b.Fatalf("%s: %s", res.Reason, res.Message)
		}
	}
}
