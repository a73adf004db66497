package config

import (
	"strings"
	"testing"
)

// TestBasePathSlashes: a trailing "/" of a written address is dropped, so
// that /v1/ joined with an operation's /pets is /v1/pets (not /v1//pets),
// but a lone "/" stays: the service is mounted at the root, and its tests
// and mocks use the bare paths, as --testBaseURL http://svc/ and mock
// --prefix / do; without a path the spec's servers give the prefix.
func TestBasePathSlashes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		address  string // the keys of runOptions.openapi, one a line
		basePath string
		url      string
	}{
		{"baseUrl with a path and a slash", "baseUrl: https://api.example.com/v1/", "/v1", "https://api.example.com/v1"},
		{"baseUrl with a path", "baseUrl: https://api.example.com/v1", "/v1", "https://api.example.com/v1"},
		{"baseUrl with slashes", "baseUrl: https://api.example.com/a/b//", "/a/b", "https://api.example.com/a/b"},
		{"baseUrl at the root", "baseUrl: https://api.example.com/", "/", "https://api.example.com/"},
		{"baseUrl without a path", "baseUrl: https://api.example.com", "", "https://api.example.com"},
		{"basePath with a slash", "host: api.example.com\nbasePath: /v1/", "/v1", "http://api.example.com/v1"},
		{"basePath at the root", "host: api.example.com\nbasePath: /", "/", "http://api.example.com/"},
		{"empty basePath", "host: api.example.com\nbasePath: \"\"", "", "http://api.example.com"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `version: 3
systemUnderTest:
  service:
    definitions:
      - definition:
          specs: [../specs/payments.yaml]
  runOptions:
    openapi:
      type: test
` + indent(tc.address, 6) + "\n" + paymentsDependency + `      runOptions:
        openapi:
` + indent(tc.address, 10) + "\n"
			cfg, err := Parse("testdata/v3/base.yaml", []byte(src), Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if got := cfg.Tests[0].Target; got.BasePath != tc.basePath || got.URL() != tc.url {
				t.Errorf("test target %+v (URL %q), want basePath %q, URL %q", got, got.URL(), tc.basePath, tc.url)
			}
			if got := cfg.Mocks[0].Target; got.BasePath != tc.basePath {
				t.Errorf("mock target %+v, want basePath %q", got, tc.basePath)
			}
		})
	}
}

// indent puts n spaces before each line of s.
func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}
