package contract_test

import (
	"context"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// ServerURL is the first server that is an absolute http(s) URL once its
// variables take their defaults; relative servers, other schemes and
// hosts left templated are passed over.
func TestServerURL(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"plain", "openapi: 3.1.0\ninfo: {title: t, version: '1'}\nservers: [{url: 'https://api.example.com/v1/'}]\npaths: {}\n", "https://api.example.com/v1"},
		{"variables at their defaults", `openapi: 3.1.0
info: {title: t, version: '1'}
servers:
  - url: 'https://{region}.example.com:{port}/{base}'
    variables:
      region: {default: eu}
      port: {default: '8443'}
      base: {default: v2}
paths: {}
`, "https://eu.example.com:8443/v2"},
		{"relative and other schemes passed over", `openapi: 3.1.0
info: {title: t, version: '1'}
servers: [{url: /v1}, {url: 'ws://events.example.com'}, {url: 'http://{host}/x'}, {url: 'http://localhost:8080'}]
paths: {}
`, "http://localhost:8080"},
		{"Swagger host and basePath", "swagger: '2.0'\ninfo: {title: t, version: '1'}\nhost: petstore.example.com\nbasePath: /api\nschemes: [https]\npaths: {}\n", "https://petstore.example.com/api"},
		{"none", "openapi: 3.1.0\ninfo: {title: t, version: '1'}\nservers: [{url: /v1}]\npaths: {}\n", ""},
		{"no servers", "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "api.yaml", []byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if got := contract.ServerURL(doc); got != tc.want {
				t.Errorf("ServerURL = %q, want %q", got, tc.want)
			}
		})
	}
}
