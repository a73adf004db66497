package examples

import (
	"encoding/base64"
	"strings"

	"github.com/specgate/specgate/spec"
)

// PlaceholderCredential is the raw credential of a security scheme that
// nobody gave one for (no example, configuration or environment variable):
// what contract tests send and what generated and repaired examples hold
// as the default of their ${SCHEME:default} templates, so that a service
// whose test setup checks only that credentials are present and well
// formed accepts it. It is "specgate-api-key" for an API key,
// "specgate-token" for a bearer token (oauth2, openIdConnect, http bearer
// and other http schemes), base64 of "specgate:specgate" for http basic,
// and "" for schemes a request header cannot carry (mutualTLS).
func PlaceholderCredential(s *spec.SecurityScheme) string {
	switch strings.ToLower(s.Type) {
	case "apikey":
		return "specgate-api-key"
	case "oauth2", "openidconnect":
		return "specgate-token"
	case "http", "basic":
		if strings.EqualFold(s.Scheme, "basic") || s.Type == "basic" {
			return base64.StdEncoding.EncodeToString([]byte("specgate:specgate"))
		}
		return "specgate-token"
	}
	return ""
}
