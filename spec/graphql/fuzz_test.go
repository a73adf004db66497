package graphql_test

import (
	"testing"

	_ "github.com/specgate/specgate/spec/graphql"
	"github.com/specgate/specgate/spec/internal/fuzzload"
)

// FuzzLoad: any text of a .graphql file loads or fails with a *spec.Error;
// it never panics or hangs.
func FuzzLoad(f *testing.F) { fuzzload.Run(f, ".graphql") }
