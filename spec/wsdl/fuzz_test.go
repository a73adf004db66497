package wsdl_test

import (
	"testing"

	"github.com/specgate/specgate/spec/internal/fuzzload"
	_ "github.com/specgate/specgate/spec/wsdl"
)

// FuzzLoad: any text of a .wsdl file loads or fails with a *spec.Error;
// it never panics or hangs.
func FuzzLoad(f *testing.F) { fuzzload.Run(f, ".wsdl") }
