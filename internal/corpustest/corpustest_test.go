package corpustest

import (
	"testing"

	"github.com/specgate/specgate/spec"
)

// Each OpenAPI document of the list loads, as OpenAPI or Swagger, once:
// a second Load returns the same document.
func TestLoadOpenAPI(t *testing.T) {
	t.Chdir("..") // Dir is seen from a folder at the module's top level
	for _, name := range OpenAPI {
		doc := Load(t, name)
		if doc.Format != spec.OpenAPI && doc.Format != spec.Swagger {
			t.Errorf("%s is %s", name, doc)
		}
		if Load(t, name) != doc {
			t.Errorf("%s was loaded twice", name)
		}
	}
}
